import { handlerContext, type RequestStep } from '../exchange.js';

/** The operation's behaviour (mock/handlers/): always answers, a success or a problem. */
export const handle: RequestStep = (x, route) => route.handler(handlerContext(x));

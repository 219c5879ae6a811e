/**
 * The scenario by plain `node`, importing the package by its name with no condition: Node resolves `opsapi/testing`
 * to the compiled dist/testing.js (package.json "exports" default). Prints what it saw as one JSON line and then must
 * exit by itself: no `process.exit`, so a timer, socket or receiver left open by `close()` would keep it running.
 */
import { startMock } from 'opsapi/testing';
import { scenario } from './scenario.mjs';

const summary = await scenario(startMock);
process.stdout.write(`${JSON.stringify({ summary, resolved: import.meta.resolve('opsapi/testing') })}\n`);

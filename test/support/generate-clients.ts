import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient as generateHeyApiClient } from '@hey-api/openapi-ts';
import openapiTS, { astToString } from 'openapi-typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The contract every client is generated from. */
const CONTRACT_FILE = join(root, 'spec', 'openapi.json');

/** Clients generated from the contract into a temporary folder. */
export interface GeneratedClients {
  /** `@hey-api/openapi-ts` output (fetch client, SDK, types); import `index.ts` and `client.gen.ts`. */
  heyApiDir: string;
  /** `openapi-fetch` wiring typed by `schema.d.ts` (openapi-typescript): exports `connect(baseUrl, accessToken)`. */
  openapiFetchModule: string;
  /** The openapi-typescript output the openapi-fetch client is typed with. */
  openapiFetchTypes: string;
  remove(): void;
}

/**
 * The openapi-fetch client with its documented auth setup: a middleware that sets `Authorization: Bearer <token>`
 * on every request (openapi-fetch docs, "Middleware & Auth").
 */
const OPENAPI_FETCH_CLIENT = `import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';

export function connect(baseUrl: string, accessToken: string) {
  const authMiddleware: Middleware = {
    async onRequest({ request }) {
      request.headers.set('Authorization', \`Bearer \${accessToken}\`);
      return request;
    },
  };
  const client = createClient<paths>({ baseUrl });
  client.use(authMiddleware);
  return client;
}
`;

/**
 * Generates both clients from spec/openapi.json with the generators' Node APIs (no network). The folder links the
 * project's node_modules so the generated code resolves `openapi-fetch` like an application would.
 */
export async function generateClients(): Promise<GeneratedClients> {
  const dir = mkdtempSync(join(tmpdir(), 'opsapi-clients-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');

  const heyApiDir = join(dir, 'hey-api');
  await generateHeyApiClient({
    input: CONTRACT_FILE,
    output: { path: heyApiDir },
    plugins: ['@hey-api/client-fetch', '@hey-api/sdk', '@hey-api/typescript'],
    logs: { level: 'silent' },
  });

  const fetchDir = join(dir, 'openapi-fetch');
  mkdirSync(fetchDir);
  const openapiFetchTypes = astToString(await openapiTS(pathToFileURL(CONTRACT_FILE), { alphabetize: false }));
  writeFileSync(join(fetchDir, 'schema.d.ts'), openapiFetchTypes);
  writeFileSync(join(fetchDir, 'client.ts'), OPENAPI_FETCH_CLIENT);

  return {
    heyApiDir,
    openapiFetchModule: join(fetchDir, 'client.ts'),
    openapiFetchTypes,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

#!/usr/bin/env node
// Launcher of the `opsapi` command. In a published package it runs the compiled JavaScript (dist/); in a source
// checkout, where the TypeScript sources and the dev dependencies are present, it runs the sources through tsx,
// so `npx opsapi` always matches the code in front of you.
import { existsSync } from 'node:fs';

const source = new URL('../cli/opsapi.ts', import.meta.url);
const compiled = new URL('../dist/cli/opsapi.js', import.meta.url);

async function tsxAvailable() {
  try {
    const { register } = await import('tsx/esm/api');
    register();
    return true;
  } catch {
    return false;
  }
}

if (existsSync(source) && (await tsxAvailable())) await import(source.href);
else if (existsSync(compiled)) await import(compiled.href);
else {
  process.stderr.write(
    'opsapi: no compiled build (dist/) and no TypeScript runner; run `npm run build` or `npm ci` first.\n',
  );
  process.exit(2);
}

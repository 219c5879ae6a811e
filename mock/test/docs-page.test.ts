import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectHarness, type InjectHarness } from './harness.js';

describe('/docs shows the kit, not the viewer it is built with', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it("titles the page with the kit's name and replaces the viewer's logo with it", async () => {
    const page = await h.call('GET', '/docs/', { token: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>opsapi: Operations Platform API</title>');
    const init = await h.call('GET', '/docs/static/swagger-initializer.js', { token: null });
    const logo = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(init.text)?.[1];
    expect(Buffer.from(logo ?? '', 'base64').toString()).toContain('>opsapi</text>');
  });

  it('links to no repository: the contact of the contract has a name and no address', async () => {
    const doc = await h.call('GET', '/openapi.json', { token: null });
    expect(doc.body.info.contact).toEqual({ name: 'opsapi contract kit' });
    expect(doc.text).not.toContain('github.com/opsapi');
  });
});

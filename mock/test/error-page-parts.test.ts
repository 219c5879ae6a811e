import { describe, expect, it } from 'vitest';
import { catalogEntry, type CatalogRecord } from '../../spec/errors/index.js';
import { negotiate } from '../http/accept.js';
import { errorPageHtml } from '../http/error-page-html.js';

/** Text as the error pages escape it: each of `& < > " '` as a numeric character reference. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const OFFERED = ['application/json', 'text/html'] as const;

describe('negotiating JSON or HTML from an Accept header', () => {
  it.each([
    { accept: undefined, expected: 'application/json' },
    { accept: '', expected: 'application/json' },
    { accept: '*/*', expected: 'application/json' },
    { accept: 'text/html', expected: 'text/html' },
    { accept: 'TEXT/HTML', expected: 'text/html' },
    { accept: 'text/*', expected: 'text/html' },
    { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', expected: 'text/html' },
    { accept: 'application/json, text/html', expected: 'application/json' },
    { accept: 'text/html;q=0.5, application/json', expected: 'application/json' },
    { accept: 'application/json;q=0.1, text/html;q=0.2', expected: 'text/html' },
    { accept: 'text/html;q=0, */*', expected: 'application/json' },
    { accept: '*/*;q=0.1, text/html;q=0.3', expected: 'text/html' },
    { accept: 'text/html;q=banana', expected: 'application/json' },
    { accept: 'text/html;q=2', expected: 'application/json' },
    { accept: 'image/png', expected: 'application/json' },
    { accept: 'garbage,,;;/', expected: 'application/json' },
  ])('picks $expected for Accept "$accept"', ({ accept, expected }) => {
    expect(negotiate(accept, OFFERED)).toBe(expected);
  });
});

describe('the HTML page of a catalog entry', () => {
  const links = { type: 'http://127.0.0.1:4010/errors/X', json: '/errors/X?format=json', docs: '/docs' };

  it('escapes the five characters that could open markup or close an attribute', () => {
    const record = { ...catalogEntry('COMMON.ENTITY.NOT_FOUND')!, title: `<a href="x" title='y'>&</a>` };
    expect(errorPageHtml(record, links)).toContain(
      '<h1 id="title">&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;</h1>',
    );
  });

  it('escapes every value it shows, from the catalog and from the links', () => {
    const hostile: CatalogRecord = {
      ...catalogEntry('COMMON.ENTITY.NOT_FOUND')!,
      title: '<script>alert(1)</script>',
      description: 'a "quoted" & <b>bold</b> description',
      parameters: [{ key: '<img src=x onerror=alert(2)>', description: "it's <i>here</i>" }],
    };
    const html = errorPageHtml(hostile, { ...links, json: '"><script>alert(3)</script>' });
    expect(html).not.toMatch(/<script|<img|<b>|<i>/);
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('href="&#34;&#62;&#60;script&#62;alert(3)&#60;/script&#62;"');
  });

  it('shows the title, code, status, description and a parameters table, and links to the JSON and to /docs', () => {
    const record = catalogEntry('COMMON.AUTH.MISSING_PERMISSIONS')!;
    const html = errorPageHtml(record, links);
    expect(html).toContain(`<h1 id="title">${escapeHtml(record.title)}</h1>`);
    expect(html).toContain('<code id="code">COMMON.AUTH.MISSING_PERMISSIONS</code>');
    expect(html).toContain('<dd id="status">403 Forbidden</dd>');
    expect(html).toContain(`<p id="description">${escapeHtml(record.description)}</p>`);
    expect(html).toContain('<table id="parameters">');
    expect(html).toContain('<td><code>permission</code></td>');
    expect(html).toContain('<a id="json" href="/errors/X?format=json">');
    expect(html).toContain('<a id="docs" href="/docs">');
  });

  it('says so when a code has no parameters', () => {
    const html = errorPageHtml(catalogEntry('COMMON.RATE_LIMIT.EXCEEDED')!, links);
    expect(html).toContain('<p id="parameters">This code carries no parameters.</p>');
  });
});

/**
 * openapi/production-map.json names the production document it was checked against (issue 50 §9: it still
 * named 000c418). Against that document (lightsparkdev/grid-api at cf2510ed, `shared/production/openapi.yaml`
 * where this checkout has it), every name the table gives production exists: each webhook key, with our event
 * among the `type` values of its payload; each path; each header; each sandbox-only path.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { productionDocument, productionDocumentPath } from '../helpers/production-document';

const map = JSON.parse(readFileSync(fileURLToPath(new URL('../../openapi/production-map.json', import.meta.url)), 'utf8')) as {
  production: string;
  paths: Record<string, string>;
  headers: Record<string, string>;
  webhooks: Record<string, string>;
  sandboxOnly: string[];
};
const entries = (table: Record<string, string>) => Object.entries(table).filter(([key]) => key !== '$comment');

describe('openapi/production-map.json', () => {
  it("names the commit of production's document it was checked against, cf2510ed, and no other", () => {
    expect(map.production).toBe('lightsparkdev/grid-api openapi.yaml at cf2510ed5509d3b187818e4ae5cca0f64a8d7b89');
    const text = JSON.stringify(map);
    expect(text).toContain('at cf2510ed5509d3b187818e4ae5cca0f64a8d7b89');
    // The earlier commit only as where the table was first read.
    expect(text.match(/000c418[0-9a-f]*/g)).toEqual(['000c418665efa3901ff733a61dd2b824bfb09c4b']);
    expect(text).toContain('first read at 000c418665efa3901ff733a61dd2b824bfb09c4b');
  });

  it.skipIf(productionDocumentPath() === undefined)('every name it gives production is in that document', () => {
    const doc = productionDocument();
    const resolve = (node: any): any => {
      let at = node;
      for (let i = 0; at?.$ref && i < 20; i++)
        at = at.$ref
          .slice(2)
          .split('/')
          .reduce((o: any, k: string) => o[k], doc);
      return at;
    };
    const typesOf = (schema: any, seen = new Set<any>()): string[] => {
      const s = resolve(schema);
      if (!s || seen.has(s)) return [];
      seen.add(s);
      const type = s.properties?.type ? resolve(s.properties.type) : undefined;
      return [
        ...(type?.enum ?? []),
        ...(type?.const ? [type.const] : []),
        ...['allOf', 'oneOf', 'anyOf'].flatMap((k) => (s[k] ?? []).flatMap((part: any) => typesOf(part, seen))),
      ];
    };
    const payloadTypes = (key: string) => typesOf(resolve(doc.webhooks[key].post.requestBody).content['application/json'].schema);
    const webhooks = entries(map.webhooks);
    expect(webhooks.length).toBeGreaterThan(20);
    expect(webhooks.filter(([, key]) => !(key in doc.webhooks))).toEqual([]);
    expect(webhooks.filter(([event, key]) => !payloadTypes(key).includes(event))).toEqual([]);
    expect(entries(map.paths).filter(([, path]) => !(path in doc.paths))).toEqual([]);
    expect(map.sandboxOnly.filter((path) => !(path in doc.paths))).toEqual([]);
    const text = JSON.stringify(doc);
    expect(entries(map.headers).filter(([, header]) => !text.includes(`"${header}"`))).toEqual([]);
  });
});

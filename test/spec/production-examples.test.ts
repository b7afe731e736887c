/** scripts/production-examples.ts: how a docs page's `curl` becomes a request example. */
import { describe, expect, it } from 'vitest';
import { readShorthand, requestsOf } from '../../scripts/production-examples';

const operations = [
  { method: 'POST', template: '/customers', pattern: /^\/customers$/ },
  { method: 'PATCH', template: '/customers/{customerId}', pattern: /^\/customers\/[^/]+$/ },
];

describe('readShorthand', () => {
  it('drops # comments outside strings and trailing commas, and keeps # inside strings', () => {
    const text = '{\n  "a": "x#y", # a comment\n  "b": [1, 2,],\n}';
    expect(JSON.parse(readShorthand(text))).toEqual({ a: 'x#y', b: [1, 2] });
  });
  it("reads a spliced shell variable as its name, and a JSX body's doubled braces as one", () => {
    expect(JSON.parse(readShorthand(`{"token": "'"$OIDC_TOKEN"'"}`))).toEqual({ token: '$OIDC_TOKEN' });
    expect(JSON.parse(readShorthand('{{\n "fullName": "Jane",\n}}'))).toEqual({ fullName: 'Jane' });
  });
});

describe('requestsOf', () => {
  it('keeps a curl with a JSON body on an operation of the document, with its line; an elided body is a placeholder', () => {
    const page = [
      '# Title',
      '```bash',
      "curl -X POST 'https://api.lightspark.com/grid/2025-10-13/customers' \\",
      "  -H 'Content-Type: application/json' \\",
      '  -d \'{"customerType": "INDIVIDUAL"}\'',
      '```',
      '```bash',
      'curl -X PATCH "https://api.lightspark.com/grid/2025-10-13/customers/Customer:1" -d \'{"address": {...}}\'',
      '```',
      '```bash',
      'curl -X GET "https://api.lightspark.com/grid/2025-10-13/customers"',
      '```',
      '```bash',
      'curl -X POST "https://api.lightspark.com/grid/2025-10-13/cards" -d \'{"a": 1}\'',
      '```',
    ].join('\n');
    expect(requestsOf('page.mdx', page, operations)).toEqual([
      { file: 'page.mdx', line: 3, method: 'POST', path: '/customers', operation: '/customers', body: { customerType: 'INDIVIDUAL' } },
      { file: 'page.mdx', line: 8, method: 'PATCH', path: '/customers/Customer:1', operation: '/customers/{customerId}', placeholder: '{"address": {...}}' },
    ]);
  });
});

/** docs/observability.md's code (test/telemetry/guide/), run. */
import { describe, expect, it } from 'vitest';
import { spans } from './guide/spans';

describe('docs/observability.md', () => {
  it('spans.ts prints one span per call, named by the path template', async () => {
    const lines: string[] = [];
    await spans((line) => lines.push(line));
    expect(lines).toEqual(['POST /customers  200  createCustomer  request id recorded', 'GET /customers/{customerId}  200  getCustomer  request id recorded']);
  });
});

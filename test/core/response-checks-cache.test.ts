/**
 * The responseChecks part loads an operation's 2xx body check once: later answers of that operation are
 * checked without going through `import()` again (what each call with `validateResponses` paid).
 */
import { describe, expect, it, vi } from 'vitest';
import { responseChecks } from '../../src/core/parts';
import { responseCheckLoaders } from '../../src/generated/response-checks';

describe('the responseChecks part', () => {
  it("loads an operation's response check once, and answers the same issues after", async () => {
    const loaders = responseCheckLoaders as { getQuote: () => Promise<unknown> };
    const load = vi.spyOn(loaders, 'getQuote');
    const first = await responseChecks.response('getQuote', { id: 5 });
    const again = await responseChecks.response('getQuote', { id: 5 });
    const third = await responseChecks.response('getQuote', { id: 'Quote:1' });
    expect(load).toHaveBeenCalledTimes(1);
    expect(first.length).toBeGreaterThan(0);
    expect(first.find((i) => i.path === 'id')).toMatchObject({ path: 'id', rule: 'invalid_type' });
    expect(again).toEqual(first);
    expect(third.find((i) => i.path === 'id')).toBeUndefined();
  });

  it('an operation without a documented body, or unknown, answers nothing, every time', async () => {
    for (let i = 0; i < 3; i++) expect(await responseChecks.response('noSuchOperation', { id: 5 })).toEqual([]);
  });
});

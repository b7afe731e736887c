/**
 * The known values a flag's help shows come from the document's open sets by field name; a name that is a plain
 * string elsewhere (the SCA proof's `code`, a rejection's `reason`) shows none rather than another field's values.
 */
import { describe, expect, it } from 'vitest';
import { openSets } from '../../src/cli/table';

describe("the CLI's known values of open sets", () => {
  it('keeps a field whose open set is the same wherever it is named', () => {
    expect(openSets().get('purposeOfPayment')).toEqual(expect.arrayContaining(['GIFT', 'SELF', 'GOODS_OR_SERVICES', 'OTHER']));
  });

  it('leaves out a name that is a plain string somewhere (code: error codes vs an SCA code; reason)', () => {
    const sets = openSets();
    expect(sets.has('code')).toBe(false);
    expect(sets.has('reason')).toBe(false);
  });
});

/** The failure-values table of docs/testing.md says what MAGIC (crossborder-sdk/sandbox) does. */
import { MAGIC } from 'crossborder-sdk/sandbox';
import { describe, expect, it } from 'vitest';
import { read } from './markdown';

const guide = read('docs/testing.md');

describe('docs/testing.md failure values', () => {
  it('lists every failure suffix with its reason', () => {
    for (const [suffix, reason] of Object.entries(MAGIC.failureSuffixes)) {
      expect(guide).toContain(`| identifier ending \`${suffix}\` | payment \`FAILED\`, \`${reason}\` |`);
    }
  });

  it('lists the other magic values', () => {
    expect(guide).toContain(`| identifier ending \`${MAGIC.stuckProcessingSuffix}\` | the payment stays \`PROCESSING\``);
    expect(guide).toContain(`| account number ending \`${MAGIC.beneficiaryNotMatchedSuffix}\` | \`beneficiaryVerificationStatus: NOT_MATCHED\``);
    expect(guide).toContain(`| account number ending \`${MAGIC.beneficiaryPartialMatchSuffix}\` | \`beneficiaryVerificationStatus: PARTIAL_MATCH\``);
    expect(guide).toContain(`| account number ending \`${MAGIC.underReviewSuffix}\` | the external account is created \`UNDER_REVIEW\``);
    expect(guide).toContain(`amount ending in \`${MAGIC.holdForApprovalCents}\``);
    expect(guide).toContain(`| OTP \`${MAGIC.otp}\` |`);
    expect(guide).toContain(`name ending \`${MAGIC.kycPendingNameSuffix}\` / \`${MAGIC.kycRejectedNameSuffix}\``);
  });
});

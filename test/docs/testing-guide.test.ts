/** The failure-values table of docs/testing.md says what MAGIC (crossborder-sdk/sandbox) does. */
import { MAGIC } from 'crossborder-sdk/sandbox';
import { describe, expect, it } from 'vitest';
import { read } from './markdown';

const guide = read('docs/testing.md');

describe('docs/testing.md failure values', () => {
  it('lists every failure value with its reason', () => {
    for (const [value, reason] of Object.entries(MAGIC.failures)) {
      expect(guide).toContain(`| identifier \`${value}\` | payment \`FAILED\`, \`${reason}\` |`);
    }
  });

  it('lists the other magic values', () => {
    expect(guide).toContain(`| identifier \`${MAGIC.stuckProcessing}\` | the payment stays \`PROCESSING\``);
    expect(guide).toContain(`| account number \`${MAGIC.beneficiaryNotMatched}\` | \`beneficiaryVerificationStatus: NOT_MATCHED\``);
    expect(guide).toContain(`| account number \`${MAGIC.beneficiaryPartialMatch}\` | \`beneficiaryVerificationStatus: PARTIAL_MATCH\``);
    expect(guide).toContain(`| account number \`${MAGIC.underReview}\` | the external account is created \`UNDER_REVIEW\``);
    expect(guide).toContain(`amount exactly \`${MAGIC.holdForApprovalAmount}\``);
    expect(guide).toContain(`| OTP \`${MAGIC.otp}\` |`);
    expect(guide).toContain(`name ending \`${MAGIC.kycPendingNameSuffix}\` / \`${MAGIC.kycRejectedNameSuffix}\``);
  });
});

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
    expect(guide).toContain(
      `| API token id \`${MAGIC.unauthorizedTokenId}\` (any secret) | every API call is refused 401 \`UNAUTHORIZED\` (\`AuthenticationError\`)`,
    );
    expect(guide).toContain(
      `| API token id \`${MAGIC.forbiddenTokenId}\` (any secret) | every API call is refused 403 \`FORBIDDEN\` (\`PermissionDeniedError\`)`,
    );
    expect(guide).toContain(`name ending \`${MAGIC.kycPendingNameSuffix}\` / \`${MAGIC.kycRejectedNameSuffix}\``);
    expect(guide).toContain(`| ownership \`signature\` \`${MAGIC.ownershipSignaturePrefix}\` followed by the challenge's \`messageToSign\` |`);
    expect(guide).toContain(`passes ${MAGIC.livenessPassesAfterMs / 1000} s (sandbox clock) later`);
  });
});

describe('the sandbox as a developer tool, pointed to from the READMEs', () => {
  it('README.md "What you get" names the sandbox tools and links the testing guide', () => {
    const whatYouGet = read('README.md').split('## What you get')[1]!.split('\n## ')[0]!;
    const bullet = whatYouGet.split('\n- ').find((b) => b.includes('docs/testing.md'));
    expect(bullet).toBeDefined();
    for (const tool of [
      'npx crossborder-sdk sandbox',
      'request',
      'webhook delivery',
      '--webhook-key',
      '--state',
      '/_sandbox/',
      'CLI verbs',
      'inspector',
      'MAGIC',
    ])
      expect({ tool, named: bullet!.includes(tool) }).toEqual({ tool, named: true });
  });

  it("docs/README.md's Testing row names them too", () => {
    const row = read('docs/README.md')
      .split('\n')
      .find((line) => line.startsWith('| [Testing](testing.md) |'));
    for (const tool of ['request log', '--webhook-key', '--state', 'verbs', '/_sandbox/', 'inspector', 'MAGIC'])
      expect({ tool, named: row?.includes(tool) }).toEqual({ tool, named: true });
  });
});

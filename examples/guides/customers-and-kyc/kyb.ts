import type { BeneficialOwnerPersonalInfo, Crossborder } from 'crossborder-sdk';

/** Submits a customer for review: the verification's status, and what it still lacks (empty once approved). */
export async function submitForReview(cb: Crossborder, customerId: string) {
  const verification = await cb.verifications.create({ customerId });
  return { status: verification.verificationStatus, missing: (verification.errors ?? []).map((e) => e.type) };
}

/** A business's owner of 25 % or more (`UBO`), who may also be the person who controls it (`CONTROL_PERSON`). */
export function addOwner(cb: Crossborder, customerId: string, person: BeneficialOwnerPersonalInfo, ownershipPercentage: number, controls: boolean) {
  return cb.beneficialOwners.create({ customerId, roles: controls ? ['UBO', 'CONTROL_PERSON'] : ['UBO'], ownershipPercentage, personalInfo: person });
}

/** Each owner and their own review: a business is approved once its owners are. */
export async function owners(cb: Crossborder, customerId: string) {
  const names: string[] = [];
  for await (const owner of cb.beneficialOwners.list({ customerId })) {
    names.push(`${owner.personalInfo.firstName} ${owner.personalInfo.lastName} (${owner.roles.join(', ')}): ${owner.kycStatus}`);
  }
  return names;
}

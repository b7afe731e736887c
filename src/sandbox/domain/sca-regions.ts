/**
 * Which customers are SCA customers: those of a region of the European Economic Area (a leaf module, so that
 * making a customer needs nothing of domain/sca.ts).
 * @module
 */

/** The countries of the European Economic Area: a customer of one of these regions is an SCA customer. */
export const SCA_REGIONS: ReadonlySet<string> = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO'.split(' '));

/** True when a customer of `region` is an SCA customer. */
export function isScaRegion(region: string | undefined): boolean {
  return region !== undefined && SCA_REGIONS.has(region);
}

/** The contact verification a new customer of `region` starts with (EEA customers only). */
export function initialContactVerification(region: string): { contactVerification?: { email: 'PENDING'; phone: 'PENDING' } } {
  return isScaRegion(region) ? { contactVerification: { email: 'PENDING', phone: 'PENDING' } } : {};
}

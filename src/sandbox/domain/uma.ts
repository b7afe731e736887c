/**
 * UMA address helpers: `$user@domain`.
 * @module
 */

const UMA_ADDRESS = /^\$[a-z0-9][a-z0-9._-]{0,63}@[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** True for a well-formed UMA address such as `$alice@wallet.example`. */
export function isUmaAddress(value: string): boolean {
  return UMA_ADDRESS.test(value);
}

/** The user part (`alice` of `$alice@wallet.example`). */
export function umaUser(address: string): string {
  return address.slice(1, address.indexOf('@'));
}

/** The domain part (`wallet.example` of `$alice@wallet.example`), lower-cased. */
export function umaDomain(address: string): string {
  return address.slice(address.indexOf('@') + 1).toLowerCase();
}

/** An UMA user part made from a name: `Zoë O'Brien` → `zoe.obrien`. */
export function umaSlug(name: string | undefined): string {
  return (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.+|\.+$/g, '')
    .slice(0, 48);
}

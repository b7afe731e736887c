/**
 * base64url without padding, encoding only. A module of its own, on the runtime's `btoa`: the main
 * entry's passkey helpers need it, and with it alone they load no codec library at import
 * (./encoding, on @scure/base, loads with webhook verification and the wallet).
 * @internal
 * @module
 */

/** base64url without padding. */
export function bytesToBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

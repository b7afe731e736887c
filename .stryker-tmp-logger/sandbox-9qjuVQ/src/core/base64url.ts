/**
 * base64url without padding, encoding only, on the runtime's \`btoa\`: what the main entry's passkey
 * helpers get (tsup.config.ts hands it to src/wallet/passkey.ts), so the main entry loads no codec
 * library at import. The same output as ./encoding's (test/core/base64url.test.ts).
 * @internal
 * @module
 */
// @ts-nocheck


/** base64url without padding. */
export function bytesToBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

import { describe, expect, it } from 'vitest';
import { passkeyAssertion, passkeyAttestation, WalletCryptoError } from '../../src/wallet';

const bytes = (...values: number[]) => new Uint8Array(values);
const b64u = (b: Uint8Array) => Buffer.from(b).toString('base64url');

describe('passkeyAttestation', () => {
  it('maps a PublicKeyCredential (ArrayBuffers, getTransports) to the attestation body', () => {
    const rawId = bytes(0xfb, 0xff, 0x01);
    const clientData = new TextEncoder().encode('{"type":"webauthn.create"}');
    const attestationObject = bytes(0xa3, 0x63, 0x66, 0x6d, 0x74);
    const response = {
      clientDataJSON: clientData.buffer,
      attestationObject: attestationObject.buffer,
      transportsCalledOn: undefined as unknown,
      getTransports() {
        // Real authenticators need `this` to be the response.
        return this === response ? ['internal', 'hybrid'] : [];
      },
    };
    expect(passkeyAttestation({ rawId: rawId.buffer, response })).toEqual({
      credentialId: '-_8B',
      clientDataJson: b64u(clientData),
      attestationObject: b64u(attestationObject),
      transports: ['internal', 'hybrid'],
    });
  });

  it('accepts toJSON() strings, typed-array views and a transports array', () => {
    const backing = bytes(9, 9, 1, 2, 3, 9);
    const view = new Uint8Array(backing.buffer, 2, 3);
    const result = passkeyAttestation({
      rawId: 'AQID',
      response: { clientDataJSON: view, attestationObject: 'o2Nm+/A=', transports: ['usb'] },
    });
    expect(result).toEqual({ credentialId: 'AQID', clientDataJson: 'AQID', attestationObject: 'o2Nm-_A', transports: ['usb'] });
    expect(passkeyAttestation({ rawId: 'AA', response: { clientDataJSON: 'AA', attestationObject: 'AA' } }).transports).toEqual([]);
  });

  it('names the missing or malformed field', () => {
    expect(() => passkeyAttestation({ rawId: 'AA', response: { clientDataJSON: 'AA' } })).toThrow(/attestationObject/);
    expect(() => passkeyAttestation({ rawId: 'not base64!', response: { clientDataJSON: 'AA', attestationObject: 'AA' } })).toThrow(WalletCryptoError);
  });
});

describe('passkeyAssertion', () => {
  it('maps an assertion, with userHandle or null', () => {
    const credential = {
      rawId: bytes(1, 2, 3).buffer,
      response: {
        clientDataJSON: bytes(4).buffer,
        authenticatorData: bytes(5, 6),
        signature: bytes(0x30, 0x45),
        userHandle: bytes(7).buffer as ArrayBuffer | null,
      },
    };
    expect(passkeyAssertion(credential)).toEqual({
      credentialId: 'AQID',
      clientDataJson: 'BA',
      authenticatorData: 'BQY',
      signature: 'MEU',
      userHandle: 'Bw',
    });
    expect(passkeyAssertion({ ...credential, response: { ...credential.response, userHandle: null } }).userHandle).toBeNull();
    const { userHandle: _, ...withoutHandle } = credential.response;
    expect(passkeyAssertion({ ...credential, response: withoutHandle }).userHandle).toBeNull();
  });

  it('refuses an assertion without a signature', () => {
    expect(() => passkeyAssertion({ rawId: 'AA', response: { clientDataJSON: 'AA', authenticatorData: 'AA' } })).toThrow(/response\.signature/);
  });
});

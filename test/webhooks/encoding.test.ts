import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64, bytesToHex, derToP1363, hexToBytes, p1363ToDer, pemToBytes } from '../../src/webhooks/encoding';

const hex = (h: string) => hexToBytes(h.replace(/\s/g, ''))!;

describe('base64', () => {
  it('round-trips every remainder length', () => {
    for (let n = 0; n < 10; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 200) & 0xff);
      const text = bytesToBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64'));
      expect(base64ToBytes(text)).toEqual(bytes);
      expect(base64ToBytes(text.replace(/=+$/, ''))).toEqual(bytes); // padding optional
    }
  });
  it('refuses characters outside the standard alphabet', () => {
    for (const bad of ['ab-c', 'ab_c', 'ab c', 'ab\nc', 'a=bc', 'abc=d', 'ab===', 'a', 'abcde', 'é', 'ab%c']) {
      expect(base64ToBytes(bad), bad).toBeUndefined();
    }
  });
  it('gives each of the 128 ASCII code units the value of the standard alphabet, and refuses the others', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    for (let code = 0; code < 128; code++) {
      const c = String.fromCharCode(code);
      // Second of four characters (padding is only allowed at the end): its 6 bits straddle bytes 0 and 1.
      const decoded = base64ToBytes(`A${c}AA`);
      if (alphabet.includes(c)) expect(decoded && ((decoded[0]! & 0x03) << 4) | (decoded[1]! >> 4), c).toBe(alphabet.indexOf(c));
      else expect(decoded, `code ${code}`).toBeUndefined();
    }
  });
  it('refuses padding that does not complete a quantum', () => {
    expect(base64ToBytes('QQ=')).toBeUndefined();
    expect(base64ToBytes('QQ==')).toEqual(new Uint8Array([0x41]));
    expect(base64ToBytes('QUI=')).toEqual(new Uint8Array([0x41, 0x42]));
  });
});

describe('hex and PEM', () => {
  it('decodes hex in either case and refuses odd or non-hex input', () => {
    expect(hexToBytes('00fFaB')).toEqual(new Uint8Array([0, 255, 171]));
    expect(bytesToHex(new Uint8Array([0, 255, 171]))).toBe('00ffab');
    expect(hexToBytes('abc')).toBeUndefined();
    expect(hexToBytes('zz')).toBeUndefined();
  });
  it('reads a PEM body, tolerating escaped newlines from environment variables', () => {
    const pem = '-----BEGIN PUBLIC KEY-----\\nAAEC\\nAwQ=\\n-----END PUBLIC KEY-----';
    expect(pemToBytes(pem, 'PUBLIC KEY')).toEqual(new Uint8Array([0, 1, 2, 3, 4]));
    expect(pemToBytes(pem, 'PRIVATE KEY')).toBeUndefined();
    expect(pemToBytes('-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----', 'PUBLIC KEY')).toBeUndefined();
  });
});

describe('DER ⇄ P1363', () => {
  const r = 'aa'.repeat(32); // high bit set: needs a 0x00 sign pad in DER
  const s = '00'.repeat(2) + '11'.repeat(30); // leading zeros: shortened in DER
  const p1363 = hex(r + s);
  const der = hex(`30 43 02 21 00 ${r} 02 1e ${'11'.repeat(30)}`);

  it('encodes minimal integers and decodes them back', () => {
    expect(bytesToHex(p1363ToDer(p1363))).toBe(bytesToHex(der));
    expect(derToP1363(der)).toEqual(p1363);
  });
  it('encodes a zero scalar as one zero byte', () => {
    const zero = new Uint8Array(64);
    expect(bytesToHex(p1363ToDer(zero))).toBe('3006020100020100');
    expect(derToP1363(p1363ToDer(zero))).toEqual(zero);
  });
  it('refuses a wrong-size P1363 input', () => {
    expect(() => p1363ToDer(new Uint8Array(63))).toThrow(RangeError);
  });

  const one = '02 01 01';
  const cases: Record<string, string> = {
    'trailing bytes': `30 06 ${one} ${one} 00`,
    'sequence length too long': `30 07 ${one} ${one}`,
    'sequence length too short': `30 05 ${one} ${one}`,
    'not a sequence': `31 06 ${one} ${one}`,
    'long-form length': `30 81 06 ${one} ${one}`,
    'three integers': `30 09 ${one} ${one} ${one}`,
    'one integer': `30 03 ${one}`,
    'wrong integer tag': `30 06 03 01 01 ${one}`,
    'zero-length integer': `30 05 02 00 ${one}`,
    'negative integer': `30 06 02 01 80 ${one}`,
    'non-minimal leading zero': `30 07 02 02 00 01 ${one}`,
    '33-byte integer without sign pad': `30 26 02 21 01 ${'00'.repeat(32)} ${one}`,
    '34-byte integer': `30 27 02 22 00 ${'80'.repeat(33)} ${one}`,
    'integer overruns the sequence': `30 06 02 05 01 ${one}`,
    empty: '',
  };
  for (const [name, bytes] of Object.entries(cases)) {
    it(`refuses DER with ${name}`, () => {
      expect(derToP1363(hex(bytes))).toBeUndefined();
    });
  }
});

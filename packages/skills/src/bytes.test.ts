import { describe, expect, it } from 'vitest';
import { fromBase64, sha256Digest, textOf, toBase64, utf8Bytes } from './bytes';

describe('bytes', () => {
  it('takes SHA-256 digests in the SEP-2640 form', async () => {
    expect(await sha256Digest(utf8Bytes('abc'))).toBe(
      'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(await sha256Digest(new Uint8Array())).toBe(
      'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('round-trips base64, large inputs included', () => {
    const bytes = new Uint8Array(40_000).map((_, i) => i % 251);
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    expect(fromBase64('not base64!')).toBeUndefined();
  });

  it('reads text only from valid UTF-8 without NUL bytes, keeping a BOM (so digests still match)', () => {
    expect(textOf(utf8Bytes('héllo'))).toBe('héllo');
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, 0x61]);
    expect(utf8Bytes(textOf(withBom)!)).toEqual(withBom);
    expect(textOf(new Uint8Array([0x61, 0x00]))).toBeUndefined();
    expect(textOf(new Uint8Array([0xff, 0xfe]))).toBeUndefined();
  });
});

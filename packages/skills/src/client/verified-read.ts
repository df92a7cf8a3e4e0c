import type { CallOptions, Client } from '@mcpkit/client';
import { fromBase64, sha256Digest, textOf, utf8Bytes } from '../bytes';
import { SkillsError } from '../skills-error';
import type { SkillResource } from '../types';

/** One file of a loaded skill, verified against the entry it was loaded with. */
export interface SkillFile {
  uri: string;
  mimeType?: string;
  /** The raw bytes (what the digest covers). */
  bytes: Uint8Array;
  /** The content as text, when the bytes are UTF-8. */
  text?: string;
}

/**
 * Reads `uri` with `resources/read` and, when `expected` is given, verifies it (SEP-2640 "Verification on Read"): the
 * byte length first, then the SHA-256. A mismatch throws `SkillsError` `ERR_SIZE_MISMATCH` or `ERR_DIGEST_MISMATCH`
 * and the content is dropped.
 */
export async function readVerified(
  client: Client,
  uri: string,
  expected: SkillResource | undefined,
  options: CallOptions | undefined,
): Promise<SkillFile> {
  const result = await client.readResource({ uri }, options);
  const contents = Array.isArray(result?.contents) ? result.contents : [];
  const content = contents.find((item) => item?.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  const sentText = (content as { text?: unknown } | undefined)?.text;
  let bytes: Uint8Array | undefined;
  if (typeof sentText === 'string') {
    bytes = utf8Bytes(sentText);
  } else if (typeof (content as { blob?: unknown } | undefined)?.blob === 'string') {
    bytes = fromBase64((content as { blob: string }).blob);
  }
  if (bytes === undefined) {
    throw new SkillsError('ERR_INVALID_RESULT', `resources/read of ${uri} returned no text or base64 content`, {
      uri,
    });
  }
  if (expected !== undefined) {
    if (bytes.length !== expected.size) {
      throw new SkillsError(
        'ERR_SIZE_MISMATCH',
        `${uri} is ${bytes.length} bytes, not the ${expected.size} its skill entry lists: the content is not used (refresh the entry with skills/get)`,
        { uri, expected: expected.size, actual: bytes.length },
      );
    }
    const digest = await sha256Digest(bytes);
    if (digest !== expected.digest) {
      throw new SkillsError(
        'ERR_DIGEST_MISMATCH',
        `${uri} does not hash to the digest its skill entry lists: the content is not used (refresh the entry with skills/get)`,
        { uri, expected: expected.digest, actual: digest },
      );
    }
  }
  const file: SkillFile = { uri, bytes };
  if (content?.mimeType !== undefined) file.mimeType = content.mimeType;
  const text = typeof sentText === 'string' ? sentText : textOf(bytes);
  if (text !== undefined) file.text = text;
  return file;
}

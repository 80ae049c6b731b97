import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** Bytes sniffed for a NUL byte, as git does. */
const SNIFF_BYTES = 8000;

/**
 * Whether a file looks binary: a NUL byte in its first 8000 bytes.
 * @example if (await looksBinary('/repo/logo.png')) return fail('binary');
 */
export async function looksBinary(file: string): Promise<boolean> {
  // Non-blocking: a FIFO would otherwise hang the open until a writer came.
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

// The `big` tool's input bound as a zod schema, for the servers written with zod (a module of its own so the floor,
// which shares big-text.ts, never loads zod).
import { z } from 'zod';

/** `bytes`: an integer between 0 and 64 MiB, as BIG_INPUT_SCHEMA says in JSON Schema. */
export const BIG_BYTES_ZOD = z.number().int().min(0).max(67_108_864);

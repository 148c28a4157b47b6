import { requireLazily } from '../lazy-require.js';

/** protobufjs, loaded on first use: a server whose clients never speak Protobuf does not load it. */
export const protobufLibrary = requireLazily<typeof import('protobufjs')>(import.meta.url, 'protobufjs');

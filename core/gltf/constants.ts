// glTF 2.0's numeric enums (§3.6.2.2 accessor component types, §3.6.1 buffer view targets): named
// once, for the reader's accessor checks (container.ts) and the writer (writer.ts).

export const BYTE = 5120;
export const UNSIGNED_BYTE = 5121;
export const SHORT = 5122;
export const UNSIGNED_SHORT = 5123;
export const UNSIGNED_INT = 5125;
export const FLOAT = 5126;

/** Bytes per component of each component type. */
export const COMPONENT_SIZES: Readonly<Record<number, number>> = { [BYTE]: 1, [UNSIGNED_BYTE]: 1, [SHORT]: 2, [UNSIGNED_SHORT]: 2, [UNSIGNED_INT]: 4, [FLOAT]: 4 };
/** The specification's name of each component type (for messages). */
export const COMPONENT_NAMES: Readonly<Record<number, string>> = { [BYTE]: 'BYTE', [UNSIGNED_BYTE]: 'UNSIGNED_BYTE', [SHORT]: 'SHORT', [UNSIGNED_SHORT]: 'UNSIGNED_SHORT', [UNSIGNED_INT]: 'UNSIGNED_INT', [FLOAT]: 'FLOAT' };

/** Buffer view targets: vertex attributes, and indices. */
export const ARRAY_BUFFER = 34962;
export const ELEMENT_ARRAY_BUFFER = 34963;

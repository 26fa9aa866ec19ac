/** Number of 32-bit words holding one sign code of `dims` bits. */
export function codeWords(dims: number): number {
  return (dims + 31) >>> 5;
}

/** Binary quantization: bit i is set when component i is positive. */
export function writeSignCode(vector: Float32Array, out: Uint32Array, offset: number): void {
  const words = codeWords(vector.length);
  for (let w = 0; w < words; w++) {
    let bits = 0;
    const base = w << 5;
    const end = Math.min(32, vector.length - base);
    for (let b = 0; b < end; b++) if (vector[base + b] > 0) bits |= 1 << b;
    out[offset + w] = bits >>> 0;
  }
}

/** SWAR popcount; Math.imul keeps the multiply in 32-bit integer arithmetic. */
export function popcount32(value: number): number {
  let x = value - ((value >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

export function norm(vector: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  return Math.sqrt(sum);
}

/** Cosine given the precomputed norms; 0 for a zero vector rather than NaN. */
export function cosine(a: Float32Array, aNorm: number, b: Float32Array, bNorm: number): number {
  if (aNorm === 0 || bNorm === 0 || a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot / (aNorm * bNorm);
}

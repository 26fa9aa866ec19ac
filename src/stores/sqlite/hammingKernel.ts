import { popcount32 } from './vectorMath.ts';

/**
 * Hamming distances from one query code to every stored code, the inner loop of a vector search.
 * In JavaScript a 1,536-bit code costs 48 SWAR popcounts, about 10 ms for 100,000 codes on this
 * machine; a WebAssembly SIMD loop (i8x16.popcnt over 128 bits at a time) does the same in a
 * fraction of that. Codes are laid out with a stride of whole 128-bit lanes (zero padded), so both
 * paths read the same memory. The JavaScript loop is kept for hosts without WebAssembly SIMD.
 */
export interface HammingKernel {
  readonly simd: boolean;
  /** The memory holding codes, query and distances; its buffer changes when it grows. */
  readonly memory: KernelMemory;
  /**
   * Writes `count` u32 distances at byte offset `out` between the code at `query` and the codes
   * from byte offset `codes` on, each `lanes` 128-bit lanes long.
   */
  distances(codes: number, count: number, lanes: number, query: number, out: number): void;
}

export const PAGE_BYTES = 65_536;

interface KernelMemory {
  readonly buffer: ArrayBuffer;
  /** Adds pages, keeping the contents; returns the previous size in pages. */
  grow(pages: number): number;
}

/** The part of the WebAssembly API used here, typed locally: Node's type definitions leave it to the DOM lib. */
interface WebAssemblyApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => KernelMemory;
}

const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;

/*
 * (module
 *   (import "env" "memory" (memory 1))
 *   (func (export "hamming") (param $codes i32) (param $count i32) (param $lanes i32) (param $query i32) (param $out i32)
 *     (local $slot i32) (local $p i32) (local $q i32) (local $w i32) (local $acc v128) (local $t v128)
 *     p = codes
 *     for slot in 0..count:
 *       acc = 0; q = query; w = lanes
 *       do { acc = i16x8.add(acc, i16x8.extadd_pairwise_i8x16_u(i8x16.popcnt(v128.xor(load p, load q)))); p += 16; q += 16 } while (--w)
 *       out[slot] = sum of the lanes of i32x4.extadd_pairwise_i16x8_u(acc)))
 * A 16-bit lane holds up to 65,535: 8,192-bit codes add at most 1,024 to one.
 */
const MODULE_HEAD = [
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  // type section: (i32 i32 i32 i32 i32) -> ()
  0x01, 0x09, 0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00,
  // import section: env.memory, min 1 page
  0x02, 0x0f, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00, 0x01,
  // function section
  0x03, 0x02, 0x01, 0x00,
  // export section: "hamming"
  0x07, 0x0b, 0x01, 0x07, 0x68, 0x61, 0x6d, 0x6d, 0x69, 0x6e, 0x67, 0x00, 0x00,
];

const HAMMING_BODY = [
  0x02,
  0x04,
  0x7f,
  0x02,
  0x7b, // locals: 4 x i32, 2 x v128
  0x20,
  0x00,
  0x21,
  0x06, // p = codes
  0x02,
  0x40, // block
  0x03,
  0x40, // loop (slots)
  0x20,
  0x05,
  0x20,
  0x01,
  0x4f,
  0x0d,
  0x01, // if slot >= count: break
  0xfd,
  0x0c,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0x21,
  0x09, // acc = 0
  0x20,
  0x03,
  0x21,
  0x07, // q = query
  0x20,
  0x02,
  0x21,
  0x08, // w = lanes
  0x03,
  0x40, // loop (lanes)
  0x20,
  0x09,
  0x20,
  0x06,
  0xfd,
  0x00,
  0x04,
  0x00, // v128.load p
  0x20,
  0x07,
  0xfd,
  0x00,
  0x04,
  0x00, // v128.load q
  0xfd,
  0x51, // v128.xor
  0xfd,
  0x62, // i8x16.popcnt
  0xfd,
  0x7d, // i16x8.extadd_pairwise_i8x16_u
  0xfd,
  0x8e,
  0x01, // i16x8.add
  0x21,
  0x09, // acc =
  0x20,
  0x06,
  0x41,
  0x10,
  0x6a,
  0x21,
  0x06, // p += 16
  0x20,
  0x07,
  0x41,
  0x10,
  0x6a,
  0x21,
  0x07, // q += 16
  0x20,
  0x08,
  0x41,
  0x01,
  0x6b,
  0x22,
  0x08,
  0x0d,
  0x00, // if --w: continue
  0x0b, // end loop (lanes)
  0x20,
  0x04,
  0x20,
  0x05,
  0x41,
  0x02,
  0x74,
  0x6a, // address out + slot * 4
  0x20,
  0x09,
  0xfd,
  0x7f,
  0x22,
  0x0a, // t = i32x4.extadd_pairwise_i16x8_u(acc)
  0xfd,
  0x1b,
  0x00, // lane 0
  0x20,
  0x0a,
  0xfd,
  0x1b,
  0x01,
  0x6a, // + lane 1
  0x20,
  0x0a,
  0xfd,
  0x1b,
  0x02,
  0x6a, // + lane 2
  0x20,
  0x0a,
  0xfd,
  0x1b,
  0x03,
  0x6a, // + lane 3
  0x36,
  0x02,
  0x00, // i32.store
  0x20,
  0x05,
  0x41,
  0x01,
  0x6a,
  0x21,
  0x05, // slot += 1
  0x0c,
  0x00, // next slot
  0x0b, // end loop (slots)
  0x0b, // end block
  0x0b, // end function
];

/** Unsigned LEB128, the encoding of every size in a WebAssembly binary. */
function leb128(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

const HAMMING_WASM = (() => {
  const body = [...leb128(HAMMING_BODY.length), ...HAMMING_BODY];
  const section = [0x01, ...body];
  return new Uint8Array([...MODULE_HEAD, 0x0a, ...leb128(section.length), ...section]);
})();

let compiled: object | null | undefined;

/** The compiled SIMD module, or null where this host's WebAssembly has no SIMD. */
function simdModule(): object | null {
  if (compiled === undefined)
    compiled = wasm !== undefined && wasm.validate(HAMMING_WASM) ? new wasm.Module(HAMMING_WASM) : null;
  return compiled;
}

export function createHammingKernel(initialBytes: number, options: { simd?: boolean } = {}): HammingKernel {
  const pages = Math.max(1, Math.ceil(initialBytes / PAGE_BYTES));
  const module = options.simd === false ? null : simdModule();
  if (module !== null && wasm !== undefined) {
    const memory = new wasm.Memory({ initial: pages });
    const hamming = new wasm.Instance(module, { env: { memory } }).exports.hamming as (
      codes: number,
      count: number,
      lanes: number,
      query: number,
      out: number,
    ) => void;
    return { simd: true, memory, distances: hamming };
  }
  return javascriptKernel(pages);
}

function javascriptKernel(pages: number): HammingKernel {
  const memory = {
    buffer: new ArrayBuffer(pages * PAGE_BYTES),
    grow(more: number): number {
      const previous = this.buffer.byteLength / PAGE_BYTES;
      const grown = new ArrayBuffer(this.buffer.byteLength + more * PAGE_BYTES);
      new Uint8Array(grown).set(new Uint8Array(this.buffer));
      this.buffer = grown;
      return previous;
    },
  };
  return {
    simd: false,
    memory,
    distances(codes, count, lanes, query, out) {
      const words = new Uint32Array(memory.buffer);
      const stride = lanes * 4;
      const q = query >>> 2;
      let p = codes >>> 2;
      const o = out >>> 2;
      for (let slot = 0; slot < count; slot++, p += stride) {
        let distance = 0;
        for (let w = 0; w < stride; w++) distance += popcount32(words[p + w] ^ words[q + w]);
        words[o + slot] = distance;
      }
    },
  };
}

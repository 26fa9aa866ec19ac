import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BinaryVectorIndex } from '../../src/stores/sqlite/binaryVectorIndex.ts';
import { createHammingKernel } from '../../src/stores/sqlite/hammingKernel.ts';
import { popcount32 } from '../../src/stores/sqlite/vectorMath.ts';
import { randomUnitVector, seededRandom } from '../contract/fixtures.ts';

/** Hamming distances computed bit by bit, the reference both kernels must match. */
function referenceDistances(words: Uint32Array, lanes: number, count: number): number[] {
  const stride = lanes * 4;
  const out: number[] = [];
  for (let slot = 0; slot < count; slot++) {
    let distance = 0;
    for (let w = 0; w < stride; w++) distance += popcount32(words[(slot + 1) * stride + w] ^ words[w]);
    out.push(distance);
  }
  return out;
}

describe('Hamming kernel', () => {
  it('runs as WebAssembly SIMD on this Node', () => {
    assert.equal(createHammingKernel(1024).simd, true);
  });

  for (const simd of [true, false]) {
    it(`${simd ? 'SIMD' : 'JavaScript'} kernel: exact distances for 1 to 64 lanes (128 to 8,192 bits)`, () => {
      for (const lanes of [1, 3, 12, 64]) {
        const count = 300;
        const stride = lanes * 16;
        const kernel = createHammingKernel((count + 1) * stride + count * 4, { simd });
        assert.equal(kernel.simd, simd);
        const words = new Uint32Array(kernel.memory.buffer);
        let seed = lanes;
        for (let i = 0; i < (count + 1) * lanes * 4; i++) {
          seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
          words[i] = seed ^ (seed << 11);
        }
        // Extremes: a code equal to the query, and its complement (every bit differs).
        for (let w = 0; w < lanes * 4; w++) {
          words[lanes * 4 + w] = words[w];
          words[2 * lanes * 4 + w] = ~words[w] >>> 0;
        }
        const out = (count + 1) * stride;
        kernel.distances(stride, count, lanes, 0, out);
        const got = [...new Uint32Array(kernel.memory.buffer, out, count)];
        assert.deepEqual(got, referenceDistances(words, lanes, count));
        assert.deepEqual(got.slice(0, 2), [0, lanes * 128]);
      }
    });
  }
});

describe('BinaryVectorIndex', () => {
  for (const simd of [true, false]) {
    it(`${simd ? 'SIMD' : 'JavaScript'} scan: grows, removes and finds what a brute-force Hamming ranking finds`, () => {
      const random = seededRandom(11);
      const dims = 1536;
      const index = new BinaryVectorIndex<{ id: string; even: boolean }>(dims, { simd });
      const vectors = new Map<string, Float32Array>();
      // Well past the first capacity (64 slots), so the kernel memory grows several times.
      for (let i = 0; i < 3000; i++) {
        const id = `m${i}`;
        const vector = randomUnitVector(dims, random);
        vectors.set(id, vector);
        index.upsert(id, vector, { id, even: i % 2 === 0 });
      }
      for (let i = 0; i < 3000; i += 7) {
        index.remove(`m${i}`);
        vectors.delete(`m${i}`);
      }
      assert.equal(index.size, vectors.size);

      const query = randomUnitVector(dims, random);
      const sign = (vector: Float32Array): boolean[] => [...vector].map((x) => x > 0);
      const querySign = sign(query);
      const ranked = [...vectors]
        .filter(([id]) => Number(id.slice(1)) % 2 === 0)
        .map(([id, vector]) => ({
          id,
          distance: sign(vector).reduce((total, bit, i) => total + (bit !== querySign[i] ? 1 : 0), 0),
        }))
        .sort((a, b) => a.distance - b.distance);
      const found = index.nearestByHamming(query, 50, (payload) => payload.even);
      assert.equal(found.length, 50);
      const cutoff = ranked[49].distance;
      const distanceOf = new Map(ranked.map((entry) => [entry.id, entry.distance]));
      // Every id returned is accepted and at most the 50th-best distance; every strictly closer id is returned.
      for (const id of found) assert.ok((distanceOf.get(id) ?? Infinity) <= cutoff, `${id} is not among the nearest`);
      for (const entry of ranked.filter((entry) => entry.distance < cutoff))
        assert.ok(found.includes(entry.id), `${entry.id} was missed`);
      // A vector's own code is at distance 0: it comes back when asked for one.
      const [firstEven] = ranked;
      assert.deepEqual(
        index.nearestByHamming(vectors.get(firstEven.id)!, 1, (payload) => payload.id === firstEven.id),
        [firstEven.id],
      );
    });
  }
});

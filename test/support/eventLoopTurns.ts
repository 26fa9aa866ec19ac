/** Event-loop turns that ran while `work` was pending: a job done in one synchronous stretch counts none. */
export async function turnsDuring<T>(work: Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let done = false;
  const tick = (): void => {
    if (done) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const value = await work;
  done = true;
  return { value, turns };
}

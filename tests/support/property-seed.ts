// Property tests draw new cases on every run. fast-check names a failure's seed in its report, but
// a run cut short (CI's time guard) never prints that report: the file's seed is said up front
// instead, and FC_SEED=<seed> replays the run.
import fc from 'fast-check';

/** Seeds every property of the calling test file, saying the seed; returns it. */
export function seedProperties(file: string): number {
  const given = Number(process.env.FC_SEED);
  const seed = Number.isInteger(given) && process.env.FC_SEED ? given : Date.now() % 2 ** 31;
  fc.configureGlobal({ seed });
  console.log(`${file}: fast-check seed ${seed} (replay with FC_SEED=${seed})`);
  return seed;
}

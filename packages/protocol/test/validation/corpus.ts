import { HAND_SEEDS } from './hand-seeds.js';
import { mutantsOf } from './mutations.js';
import { type OfficialSchema, officialExamples } from './official-schema.js';
import { instancesOf } from './schema-instances.js';

// The corpus a revision's validators are compared on: for every schema type, valid seeds (generated from the schema,
// the official 2026-07-28 examples, hand-written messages) and systematic mutants of each seed.

export interface CorpusEntry {
  readonly typeName: string;
  /** `seed (generated #n)`, `seed (example file.json)`, `drop $.params.name of example file.json`… */
  readonly origin: string;
  /** JSONPath of the mutated location (`$` for seeds). */
  readonly path: string;
  readonly value: unknown;
}

/** Instances per type, seeds included; mutants are spread evenly over each seed. */
const PER_TYPE_BUDGET = 360;
const MIN_MUTANTS_PER_SEED = 24;

interface Seed {
  readonly label: string;
  readonly value: unknown;
}

function seedsFor(official: OfficialSchema, typeName: string, extraSeeds: readonly Seed[]): Seed[] {
  const generated = instancesOf(official.document, typeName).map((value, index) => ({
    label: `generated #${index}`,
    value,
  }));
  return [...extraSeeds, ...generated];
}

export function buildCorpus(official: OfficialSchema): CorpusEntry[] {
  const extra = new Map<string, Seed[]>();
  const add = (typeName: string, seed: Seed) => {
    const list = extra.get(typeName) ?? [];
    list.push(seed);
    extra.set(typeName, list);
  };
  for (const example of officialExamples())
    add(example.typeName, { label: `example ${example.file}`, value: example.value });
  for (const [index, seed] of HAND_SEEDS.entries())
    add(seed.typeName, { label: `hand seed #${index}`, value: seed.value });

  const corpus: CorpusEntry[] = [];
  for (const typeName of official.typeNames) {
    const seeds = seedsFor(official, typeName, extra.get(typeName) ?? []);
    const perSeed = Math.max(MIN_MUTANTS_PER_SEED, Math.floor(PER_TYPE_BUDGET / seeds.length));
    for (const seed of seeds) {
      corpus.push({ typeName, origin: `seed (${seed.label})`, path: '$', value: seed.value });
      for (const mutant of mutantsOf(seed.value, perSeed)) {
        corpus.push({ typeName, origin: `${mutant.change} of ${seed.label}`, path: mutant.path, value: mutant.value });
      }
    }
  }
  return corpus;
}

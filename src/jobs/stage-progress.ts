// An analysis's progress as the API shows it, recorded from the worker thread as the engine moves: a stage
// event when the work passes from one of the wire's stages to the next (AnalysisStage has three), and a log
// line as each engine stage begins, each with the percentage done.
import type { ProgressCallback, StageName } from '../engine/index.js';
import type { Store } from '../store/index.js';

type WireStage = 'ANALYSIS' | 'INFERENCE' | 'POST_PROCESSING';

/** Loading and recovery are the analysis; vectors are the model's inference; the rest comes after. */
const WIRE_STAGE: Record<StageName, WireStage> = {
  identify: 'ANALYSIS',
  hash: 'ANALYSIS',
  parse: 'ANALYSIS',
  recover: 'ANALYSIS',
  names: 'ANALYSIS',
  // Run by data-type generation only (engine analyzeTypes), where it is the inference.
  types: 'INFERENCE',
  strings: 'ANALYSIS',
  instructions: 'INFERENCE',
  vectors: 'INFERENCE',
  capabilities: 'POST_PROCESSING',
  sbom: 'POST_PROCESSING',
};

/** The engine's progress listener for one analysis: writes as it goes, so pollers see the analysis move. */
export function recordProgress(events: Store['events'], analysisId: number): ProgressCallback {
  let current: WireStage | null = null;
  return async (stage, fraction, label) => {
    const percent = Math.round(fraction * 100);
    const next = stage === 'done' ? null : WIRE_STAGE[stage];
    if (next !== current) {
      if (current) await events.stage(analysisId, current, 'FINISHED', percent);
      if (next) await events.stage(analysisId, next, 'STARTED', percent);
      current = next;
    }
    if (stage !== 'done') await events.log(analysisId, `${label} (${percent}%)`);
  };
}

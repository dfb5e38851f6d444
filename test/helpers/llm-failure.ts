// The LlmError a model call ends in, for tests of src/llm.
import assert from 'node:assert/strict';
import { LlmError } from '../../src/llm/llm-error.js';

/** The LlmError `call` rejects with; fails the test if it succeeds or rejects with anything else. */
export async function llmFailure(call: Promise<unknown>): Promise<LlmError> {
  try {
    await call;
  } catch (err) {
    assert.ok(err instanceof LlmError, `expected an LlmError, got ${String(err)}`);
    return err;
  }
  assert.fail('the call succeeded');
}

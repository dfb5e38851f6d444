-- AI refinement of decompilations (issue 12, item 3): whether a function's decompilation is to be, or was,
-- made with the language model too. A per-function request sets it when a model is configured; the
-- whole-analysis request does not (one model call per function of a whole binary would take hours), so a
-- result made without it is made again when a per-function request asks for it.
ALTER TABLE function_decompilations ADD COLUMN with_model INTEGER NOT NULL DEFAULT 0;

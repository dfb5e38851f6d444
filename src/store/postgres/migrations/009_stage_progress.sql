-- How far an analysis had got at each stage event, in percent (null for events before the engine reports).
ALTER TABLE analysis_stages ADD COLUMN progress INTEGER;

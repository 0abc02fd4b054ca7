-- A case's notes are rows of their own: a note inserts one small row instead of rewriting the
-- whole case document, and the case list carries each case's count, not its notes. case_view
-- keeps the count and total characters of the notes, which the notes bound needs to decide.
CREATE TABLE case_notes (
  case_id text NOT NULL,
  ordinal int NOT NULL,            -- the note's place in the case's notes, from 0
  note jsonb NOT NULL,             -- the Note as the API shows it
  PRIMARY KEY (case_id, ordinal)
);

ALTER TABLE case_view
  ADD COLUMN note_count int NOT NULL DEFAULT 0,
  ADD COLUMN notes_text_length int NOT NULL DEFAULT 0;

INSERT INTO case_notes (case_id, ordinal, note)
SELECT v.id, n.ordinal - 1, n.note
  FROM case_view v, jsonb_array_elements(v.data->'notes') WITH ORDINALITY AS n(note, ordinal)
 WHERE jsonb_typeof(v.data->'notes') = 'array';

UPDATE case_view v
   SET note_count = coalesce(jsonb_array_length(v.data->'notes'), 0),
       -- In UTF-16 code units, as the domain counts (JavaScript's length): astral characters twice.
       notes_text_length = coalesce(
         (SELECT sum(length(n->>'text') + length(regexp_replace(n->>'text', '[^\U00010000-\U0010FFFF]', '', 'g')))
            FROM jsonb_array_elements(v.data->'notes') n), 0),
       data = v.data - 'notes'
 WHERE v.data ? 'notes';

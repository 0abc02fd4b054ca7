-- Billing (api.md "Billing"): invoices live as events in their own streams (invoice-{caseId});
-- invoice_view is their read model, written with each invoice command's events and rebuilt by
-- replay. billing_counters is not a read model: it hands out consecutive numbers per kind (INV,
-- CN) and year, taken inside the transaction that appends the numbered event, so a rollback
-- gives the number back (no gap) and the row lock serialises issuers (no duplicate).
CREATE TABLE invoice_view (
  number text PRIMARY KEY,
  case_id text NOT NULL UNIQUE,
  doctor_key text NOT NULL,          -- lower-case username
  status text NOT NULL,              -- open | paid | void
  issued_at timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  balance bigint NOT NULL,
  version int NOT NULL,
  data jsonb NOT NULL,               -- the Invoice as the API answers it
  -- The same as text, so a list is one string_agg of stored texts rather than a conversion of
  -- every document per request.
  doc text GENERATED ALWAYS AS (data::text) STORED
);
CREATE INDEX invoice_view_issued ON invoice_view (issued_at DESC, number DESC);
CREATE INDEX invoice_view_doctor ON invoice_view (doctor_key, issued_at DESC);
CREATE INDEX invoice_view_open ON invoice_view (due_at) WHERE status = 'open';

CREATE TABLE billing_counters (
  kind text NOT NULL,                -- INV | CN
  year int NOT NULL,
  last int NOT NULL,
  PRIMARY KEY (kind, year)
);

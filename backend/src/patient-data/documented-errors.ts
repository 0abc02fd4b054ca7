import { ACCOUNT_TEXTS, CASE_ERASURE, CASE_TEXTS } from '@alignerflow/domain';

const STEP_UP = `${ACCOUNT_TEXTS.confirmItIsYou} (with reauth: true)`;

/** api.md's error answers of erasure, purges and retention (openapi/documented-errors.ts spreads them in). */
export const PATIENT_DATA_ERRORS = {
  'post /cases/{id}/erase': [
    { status: 400, description: CASE_ERASURE.reasonRequired },
    { status: 403, description: `${CASE_TEXTS.managerOnly} / ${STEP_UP}` },
    { status: 409, description: CASE_ERASURE.onlyClosed },
  ],
  'post /cases/{id}/files/purge': [
    { status: 400, description: CASE_ERASURE.reasonRequired },
    { status: 403, description: `${CASE_TEXTS.managerOnly} / ${STEP_UP}` },
    { status: 404, description: CASE_ERASURE.fileNotFound },
  ],
  'get /settings/retention': [{ status: 403, description: CASE_TEXTS.managerOnly }],
  'put /settings/retention': [
    { status: 400, description: CASE_ERASURE.retentionRange },
    { status: 403, description: CASE_TEXTS.managerOnly },
  ],
};

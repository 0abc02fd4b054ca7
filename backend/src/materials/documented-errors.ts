import { DEVICE_TEXTS } from '@alignerflow/domain';

/** api.md's error answers of the Devices routes, for the OpenAPI description (see openapi/documented-errors.ts). */
export const DEVICE_ERRORS = {
  'get /materials/lots': [{ status: 403, description: DEVICE_TEXTS.staffOnly }],
  'post /materials/lots': [
    { status: 403, description: DEVICE_TEXTS.lotRoles },
    { status: 409, description: 'Lot {lotNumber} is already registered.' },
  ],
  'get /materials/lots/{lotNumber}/cases*': [
    { status: 403, description: DEVICE_TEXTS.recallRoles },
    { status: 404, description: 'Unknown lot {lotNumber}.' },
  ],
  'get /materials/settings': [{ status: 403, description: DEVICE_TEXTS.staffOnly }],
  'put /materials/settings': [{ status: 403, description: DEVICE_TEXTS.settingsRoles }],
  'post /cases/{id}/advance': [
    { status: 400, description: 'Unknown lot {lotNumber}. / Lot {lotNumber} expired on {YYYY-MM-DD}.' },
    { status: 409, description: DEVICE_TEXTS.lotRequired },
  ],
  'get /cases/{id}/statement.pdf': [{ status: 409, description: DEVICE_TEXTS.statementNotYet }],
  'post /cases/{id}/shipments': [
    { status: 403, description: DEVICE_TEXTS.shipRoles },
    { status: 409, description: DEVICE_TEXTS.shipStatus },
  ],
  'post /cases/{id}/received': [
    { status: 403, description: DEVICE_TEXTS.receivedRoles },
    { status: 409, description: DEVICE_TEXTS.receivedStatus },
  ],
};

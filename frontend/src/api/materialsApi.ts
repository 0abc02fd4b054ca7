import type {
  Case,
  DeviceRecord,
  ExpectedVersion,
  Lot,
  MaterialSettings,
  MaterialSettingsBody,
  RecallRow,
  RegisterLotBody,
  ShipmentBody,
} from '@alignerflow/domain';
import { API_BASE, request } from './client';

const enc = encodeURIComponent;

/** api.md's "Devices" routes: lots, settings, recall, the device record and statement, shipping. */
export const materialsApi = {
  lots: () => request<Lot[]>('GET', '/materials/lots'),
  register: (body: RegisterLotBody) => request<Lot>('POST', '/materials/lots', { body }),
  recall: (lotNumber: string) => request<RecallRow[]>('GET', `/materials/lots/${enc(lotNumber)}/cases`),
  settings: () => request<MaterialSettings>('GET', '/materials/settings'),
  saveSettings: (body: MaterialSettingsBody) =>
    request<MaterialSettings>('PUT', '/materials/settings', { body }),
  deviceRecord: (caseId: string) => request<DeviceRecord>('GET', `/cases/${enc(caseId)}/device-record`),
  ship: (item: Case, body: Omit<ShipmentBody, 'expectedVersion'>) =>
    request<Case>('POST', `/cases/${enc(item.id)}/shipments`, {
      body: { ...body, expectedVersion: item.version } satisfies ShipmentBody,
    }),
  received: (item: Case) =>
    request<Case>('POST', `/cases/${enc(item.id)}/received`, {
      body: { expectedVersion: item.version } satisfies ExpectedVersion,
    }),
};

export const recallCsvUrl = (lotNumber: string) => `${API_BASE}/materials/lots/${enc(lotNumber)}/cases.csv`;
export const statementUrl = (caseId: string, paper: 'a4' | 'letter') =>
  `${API_BASE}/cases/${enc(caseId)}/statement.pdf?paper=${paper}`;

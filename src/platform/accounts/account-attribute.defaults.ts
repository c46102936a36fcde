import type { AccountAttribute } from './account-attribute.table.js';

export interface AttributeSeed {
  value: string;
  icon?: string;
  color?: string;
  isDefault?: boolean;
}

/** What each organization starts with: sensible values and exactly one default per attribute. */
export const ACCOUNT_ATTRIBUTE_DEFAULTS: Record<AccountAttribute, AttributeSeed[]> = {
  account_status: [
    { value: 'Prospect', color: '#3B82F6', isDefault: true },
    { value: 'Active', color: '#22C55E' },
    { value: 'Inactive', color: '#9CA3AF' },
    { value: 'Churned', color: '#EF4444' },
  ],
  account_classification: [
    { value: 'Customer', isDefault: true },
    { value: 'Partner' },
    { value: 'Reseller' },
    { value: 'Vendor' },
  ],
  account_health: [
    { value: 'Healthy', color: '#22C55E', isDefault: true },
    { value: 'At risk', color: '#F59E0B' },
    { value: 'Critical', color: '#EF4444' },
  ],
  account_industry: [
    { value: 'Other', isDefault: true },
    { value: 'Technology' },
    { value: 'Financial services' },
    { value: 'Healthcare' },
    { value: 'Retail' },
    { value: 'Manufacturing' },
    { value: 'Education' },
  ],
  contact_type: [{ value: 'Customer', isDefault: true }, { value: 'Lead' }, { value: 'Partner' }],
  note_type: [
    { value: 'General', icon: 'document-text', color: '#6B7280', isDefault: true },
    { value: 'Meeting', icon: 'users', color: '#3B82F6' },
    { value: 'Call', icon: 'phone', color: '#22C55E' },
    { value: 'Email', icon: 'envelope', color: '#F59E0B' },
  ],
};

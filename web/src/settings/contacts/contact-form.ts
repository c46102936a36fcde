import { z } from 'zod';
import type { Contact } from './contact-queries';

/** The form's own checks; the API judges the rest (an email another contact has, a phone's shape). */
export const contactFormSchema = z.object({
  firstName: z.string().trim().min(1, 'Give the first name').max(100, 'At most 100 characters'),
  lastName: z.string().max(100, 'At most 100 characters'),
  email: z.string().trim().min(1, 'Give the email address').max(320),
  phoneNumber: z.string().max(30, 'At most 30 characters'),
});

export type ContactFormValues = z.infer<typeof contactFormSchema>;

export const NEW_CONTACT: ContactFormValues = { firstName: '', lastName: '', email: '', phoneNumber: '' };

export const contactFormValuesOf = (contact: Contact): ContactFormValues => ({
  firstName: contact.firstName,
  lastName: contact.lastName ?? '',
  email: contact.email,
  phoneNumber: contact.phoneNumber ?? '',
});

/** What the API takes: empty optional texts as null, which clears them. */
export const contactBodyOf = (values: ContactFormValues) => ({
  firstName: values.firstName.trim(),
  lastName: values.lastName.trim() || null,
  email: values.email.trim(),
  phoneNumber: values.phoneNumber.trim() || null,
});

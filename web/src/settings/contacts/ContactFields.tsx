import type { UseFormReturn } from 'react-hook-form';
import { InputField } from '../../ui/FormField';
import type { ContactFormValues } from './contact-form';

/** A contact's name, email and phone, as both the new-contact dialog and the contact page edit them. */
export function ContactFields({ form }: { form: UseFormReturn<ContactFormValues> }) {
  const { register, formState } = form;
  const { errors } = formState;
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <InputField label="First name" autoComplete="off" error={errors.firstName?.message} {...register('firstName')} />
      <InputField label="Last name" autoComplete="off" error={errors.lastName?.message} {...register('lastName')} />
      <InputField label="Email" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
      <InputField label="Phone" type="tel" autoComplete="off" error={errors.phoneNumber?.message} {...register('phoneNumber')} />
    </div>
  );
}

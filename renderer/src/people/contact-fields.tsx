import { SimpleGrid, Textarea, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';

export type ContactKey = 'name' | 'email' | 'phone' | 'address';

/**
 * A person's name, email, phone and address, as the sign-up and the edit form both ask for them. `children` go into
 * the grid after the phone (the sign-up's status).
 */
export function ContactFields({
  values,
  errors,
  onChange,
  children,
}: {
  values: Record<ContactKey, string>;
  errors: Record<string, string>;
  onChange(key: ContactKey, value: string): void;
  children?: ReactNode;
}) {
  const text = (key: ContactKey) => ({
    value: values[key],
    onChange: (event: { currentTarget: { value: string } }) => onChange(key, event.currentTarget.value),
    error: errors[key],
    'data-field': key,
  });
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label="Name" withAsterisk {...text('name')} />
        <TextInput label="Email" type="email" {...text('email')} />
        <TextInput label="Phone" type="tel" {...text('phone')} />
        {children}
      </SimpleGrid>
      <Textarea label="Address" autosize minRows={2} {...text('address')} />
    </>
  );
}

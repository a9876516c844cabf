import { Anchor, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { type ReactNode, useRef, useState } from 'react';
import { suggestedEmail } from './email-suggestion';

export type ContactKey = 'name' | 'email' | 'phone' | 'address';

/**
 * A person's name, email, phone and address, as the sign-up and the edit form both ask for them. `children` go into
 * the grid after the phone (the sign-up's status). An email whose provider looks misspelt (`gmial.com`) gets a
 * suggestion under it once the field is left, with a button that takes it.
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
  const [typingEmail, setTypingEmail] = useState(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const suggestion = typingEmail || errors.email ? undefined : suggestedEmail(values.email);
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {/* Where the focus goes when the sign-up opens: typing starts the name (a space there no longer reaches the
            close button). */}
        <TextInput label="Name" withAsterisk aria-required {...text('name')} data-autofocus />
        <TextInput
          label="Email"
          type="email"
          {...text('email')}
          ref={emailInput}
          onFocus={() => setTypingEmail(true)}
          onBlur={() => setTypingEmail(false)}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          description={
            suggestion && (
              <>
                Did you mean{' '}
                <Anchor
                  component="button"
                  type="button"
                  size="xs"
                  onClick={() => {
                    onChange('email', suggestion);
                    // The button goes with the suggestion: the focus goes back to the address it corrected.
                    emailInput.current?.focus();
                  }}
                >
                  {suggestion}
                </Anchor>
                ?
              </>
            )
          }
        />
        <TextInput label="Phone" type="tel" {...text('phone')} />
        {children}
      </SimpleGrid>
      <Textarea label="Address" autosize minRows={2} {...text('address')} />
    </>
  );
}

import { expect, test } from './desk-fixture';
import { catFields, connect, fillPetBasics, postToServer, shoot } from './helpers';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// West and east of UTC: a date pushed through a time zone would show a day early in one and a day late in the other.
for (const timezoneId of ['America/Los_Angeles', 'Pacific/Auckland']) {
  test.describe(`dates in ${timezoneId}`, () => {
    test.use({ timezoneId, locale: 'en-US' });

    test('an intake date is the calendar day written, and a new intake starts on the desk’s own today', async ({
      page,
      desk,
      server,
    }, testInfo) => {
      test.setTimeout(120_000);
      await postToServer(server, '/pets', {
        ...catFields('Calendar Cat'),
        intake_date: '2026-05-14T00:00:00Z',
      });
      await connect(page, desk.url, server);
      const nav = page.getByRole('navigation', { name: 'Sections' });
      await nav.getByRole('link', { name: 'Pets' }).click();
      await page.getByRole('textbox', { name: 'Search' }).fill('Calendar Cat');
      const row = page.getByRole('table', { name: 'Pets' }).getByRole('row', { name: 'Calendar Cat' });
      await expect(row).toContainText('May 14, 2026');
      await row.click();
      await expect(page.getByRole('dialog').getByRole('table', { name: 'Pet fields' })).toContainText(
        'May 14, 2026',
      );
      await page.keyboard.press('Escape');

      // The browser's own calendar day in this zone, not UTC's.
      const today = await page.evaluate<number[]>(
        '(() => { const d = new Date(); return [d.getFullYear(), d.getMonth(), d.getDate()]; })()',
      );
      const [year, month, day] = today as [number, number, number];
      await nav.getByRole('link', { name: 'Intake' }).click();
      const form = page.getByRole('form', { name: 'New pet' });
      // In the order of the desk's language (en-US here), as the list and the drawer print dates.
      await expect(form.getByRole('textbox', { name: 'Intake date' })).toHaveValue(
        `${MONTHS[month]} ${day}, ${year}`,
      );
      await shoot(page, testInfo, `intake-${timezoneId.replace('/', '-')}`, false);
    });

    test('a custom date field uses the same date input as the intake date, and sends the calendar day typed', async ({
      page,
      desk,
      server,
    }, testInfo) => {
      test.setTimeout(120_000);
      await connect(page, desk.url, server);
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Intake' }).click();
      const form = page.getByRole('form', { name: 'New pet' });
      const vaccination = form.getByRole('textbox', { name: 'Last vaccination' });
      // The library's input (no native mm/dd/yyyy field), in the intake date's format (the desk language's order).
      await expect(vaccination).not.toHaveAttribute('type', 'date');
      await expect(vaccination).toHaveAttribute('placeholder', 'Pick a day');
      await vaccination.fill('14 May 2026');
      await vaccination.press('Tab');
      await expect(vaccination).toHaveValue('May 14, 2026');
      await shoot(page, testInfo, `custom-date-${timezoneId.replace('/', '-')}`);
      // Typed as staff type dates: day first with dots, or by a day over 12; what names no day is said, not guessed.
      await vaccination.fill('28.11.2026');
      await vaccination.press('Tab');
      await expect(vaccination).toHaveValue('Nov 28, 2026');
      await vaccination.fill('28.13.2026');
      await vaccination.press('Tab');
      // Kept as typed (not the day it had before), with what is wrong; read again once it is changed.
      await expect(vaccination).toHaveValue('28.13.2026');
      await expect(vaccination).toHaveAccessibleDescription(
        '“28.13.2026” is not a day: a year has 12 months.',
      );
      await shoot(page, testInfo, `custom-date-unread-${timezoneId.replace('/', '-')}`);
      // A day picked on the calendar replaces the text, and the focus stays on the calendar's button (where Tab took
      // it from the unreadable text; the screenshots above scrolled the page away from it).
      const calendar = form.getByRole('button', { name: 'Choose last vaccination on a calendar' });
      await expect(calendar).toBeFocused();
      await calendar.scrollIntoViewIfNeeded();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog', { name: 'Choose last vaccination on a calendar' })).toBeVisible();
      await page.keyboard.press('Enter');
      await expect(vaccination).not.toHaveValue('28.13.2026');
      await expect(vaccination).not.toHaveAccessibleDescription(/not a date/);
      await expect(calendar).toBeFocused();
      await vaccination.fill('14/05/2026');
      await vaccination.press('Tab');
      await expect(vaccination).toHaveValue('May 14, 2026');
      await expect(vaccination).not.toHaveAccessibleDescription(/not a date/);

      await fillPetBasics(page, form, 'Vaccinated Vera', {
        Species: 'Cat',
        Age: 'Adult',
        Sex: 'Female',
        Size: 'Small',
        Health: 'Good',
      });
      const birthday = form.getByRole('textbox', { name: 'Birthday' });
      // A birthday after today is said under the field as soon as it is given, before any save.
      await birthday.fill('2099-01-15');
      await birthday.press('Tab');
      await expect(birthday).toHaveAccessibleDescription(/A birthday cannot be after today/);
      await birthday.fill('3/14/2024');
      await birthday.press('Tab');
      await expect(birthday).toHaveValue('Mar 14, 2024');
      await expect(birthday).not.toHaveAccessibleDescription(/cannot be after/);
      // A day that does not exist is not saved as the day the field showed before (today): the intake is refused.
      const intakeDate = form.getByRole('textbox', { name: 'Intake date' });
      await intakeDate.fill('31/02/2026');
      await intakeDate.press('Tab');
      await expect(intakeDate).toHaveValue('31/02/2026');
      await form.getByRole('button', { name: 'Save intake' }).click();
      await expect(
        form
          .getByRole('alert')
          .filter({ hasText: 'Intake date: “31/02/2026” is not a day: February 2026 has 28 days' }),
      ).toBeVisible();
      await shoot(page, testInfo, `intake-date-unread-${timezoneId.replace('/', '-')}`);
      // A day after today is taken (an intake booked ahead), and the field says how far ahead it is before saving.
      await intakeDate.fill('tomorrow');
      await intakeDate.press('Tab');
      await expect(intakeDate).toHaveAccessibleDescription(
        / is tomorrow: booked ahead\? If the pet is here already/,
      );
      // Enter in the field, with text that names no day, keeps the text and says so; the form is not sent.
      await intakeDate.fill('2026-02-28');
      await intakeDate.press('Tab');
      await expect(intakeDate).toHaveValue('Feb 28, 2026');
      await intakeDate.fill('30/02/2026');
      await intakeDate.press('Enter');
      await expect(intakeDate).toHaveValue('30/02/2026');
      await expect(intakeDate).toBeFocused();
      await expect(intakeDate).toHaveAccessibleDescription(
        /“30\/02\/2026” is not a day: February 2026 has 28 days/,
      );
      await intakeDate.fill('2026-02-28');
      await intakeDate.press('Tab');
      await expect(intakeDate).toHaveValue('Feb 28, 2026');
      await form.getByRole('button', { name: 'Save intake' }).click();
      await expect(async () => {
        const { pets } = await server.api<{
          pets: {
            custom_field_data: Record<string, unknown>;
            age_birthday: string | null;
            intake_date: string | null;
          }[];
        }>('/pets?search=Vaccinated%20Vera&limit=5');
        expect(pets.map((pet) => pet.custom_field_data.last_vaccination)).toEqual(['2026-05-14']);
        expect(pets.map((pet) => pet.age_birthday?.slice(0, 10))).toEqual(['2024-03-14']);
        expect(pets.map((pet) => pet.intake_date?.slice(0, 10))).toEqual(['2026-02-28']);
      }).toPass({ timeout: 30_000 });
    });
  });
}

test.describe('dates in a language that writes the day first', () => {
  test.use({ timezoneId: 'Europe/London', locale: 'en-GB' });

  test('the list and the date input both put the day first', async ({ page, desk, server }) => {
    test.setTimeout(120_000);
    await postToServer(server, '/pets', {
      ...catFields('Day First Cat'),
      intake_date: '2026-05-14T00:00:00Z',
    });
    await connect(page, desk.url, server);
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'Pets' }).click();
    await page.getByRole('textbox', { name: 'Search' }).fill('Day First Cat');
    const row = page.getByRole('table', { name: 'Pets' }).getByRole('row', { name: 'Day First Cat' });
    await expect(row).toContainText('14 May 2026');
    await nav.getByRole('link', { name: 'Intake' }).click();
    const vaccination = page
      .getByRole('form', { name: 'New pet' })
      .getByRole('textbox', { name: 'Last vaccination' });
    await vaccination.fill('14/05/2026');
    await vaccination.press('Tab');
    await expect(vaccination).toHaveValue('14 May 2026');
  });
});

test.describe('typed dates on a computer whose language writes the month first', () => {
  test.use({ locale: 'en-US' });

  test('Settings → Typed dates reads 03/04/2026 day first for a shelter that writes dates so, and shows it so', async ({
    page,
    desk,
  }) => {
    await page.goto(`${desk.url}#/settings`);
    const order = page.getByRole('combobox', { name: 'Typed dates' });
    await expect(order).toHaveValue('As this computer writes dates (month first)');
    await order.click();
    await page.getByRole('option', { name: 'Day first: 31/12/2026' }).click();
    await expect(order).toHaveValue('Day first: 31/12/2026');

    await page.goto(`${desk.url}#/intake`);
    const intakeDate = page
      .getByRole('form', { name: 'New pet' })
      .getByRole('textbox', { name: 'Intake date' });
    await intakeDate.fill('03/04/2026');
    await intakeDate.press('Tab');
    await expect(intakeDate).toHaveValue('3 Apr 2026');

    // Kept on the desk: a reload reads the same way.
    await page.reload();
    await intakeDate.fill('05/06/2026');
    await intakeDate.press('Tab');
    await expect(intakeDate).toHaveValue('5 Jun 2026');
  });
});

import { requiredString } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { TextInput } from '@mantine/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../api/client';
import { renderRoutes, t } from '../../testing/render';
import { PageHeader } from '../page-header';
import { FormShell, type SaveResult } from './form-shell';
import { useFieldError } from './use-field-error';

const schema = z.object({ name: requiredString() });
type Values = z.infer<typeof schema>;

function TestForm({
  onSave,
  readOnly,
}: {
  onSave: (values: Values) => Promise<SaveResult<Values> | undefined>;
  readOnly?: boolean;
}) {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { name: 'Original' } });
  const fieldError = useFieldError(form.formState.errors);
  return (
    <FormShell form={form} onSave={onSave} readOnly={readOnly}>
      <PageHeader title="Record" />
      <TextInput label="Name" {...form.register('name')} error={fieldError('name')} />
      <Link to="/other">Elsewhere</Link>
    </FormShell>
  );
}

/** A create form (its route ends in /create) whose one field starts empty. */
function CreateForm({ onSave }: { onSave: (values: Values) => Promise<SaveResult<Values> | undefined> }) {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { name: '' } });
  const fieldError = useFieldError(form.formState.errors);
  return (
    <FormShell form={form} onSave={onSave}>
      <TextInput label="Name" {...form.register('name')} error={fieldError('name')} />
    </FormShell>
  );
}

function setup(onSave: (values: Values) => Promise<SaveResult<Values> | undefined>, readOnly = false) {
  return renderRoutes(
    [
      { path: '/form', element: <TestForm onSave={onSave} readOnly={readOnly} /> },
      { path: '/other', element: <p>Other page</p> },
    ],
    ['/form'],
  );
}

const saveButton = () => screen.queryByRole('button', { name: t('basics.save') });
const discardButton = () => screen.queryByRole('button', { name: t('basics.discard') });

describe('FormShell', () => {
  it('shows the save bar only while the form is dirty, and discards the changes', async () => {
    const { user } = setup(vi.fn(async (_values: Values) => undefined));
    expect(saveButton()).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), ' changed');
    expect(saveButton()).toBeInTheDocument();
    expect(discardButton()).toBeInTheDocument();
    await user.click(discardButton() as HTMLElement);
    expect(screen.getByLabelText('Name')).toHaveValue('Original');
    expect(saveButton()).not.toBeInTheDocument();
  });

  it('saves with the bar button and becomes clean again', async () => {
    const onSave = vi.fn(async (_values: Values) => undefined);
    const { user } = setup(onSave);
    await user.type(screen.getByLabelText('Name'), '!');
    await user.click(saveButton() as HTMLElement);
    await waitFor(() => expect(onSave).toHaveBeenCalledWith({ name: 'Original!' }));
    await waitFor(() => expect(saveButton()).not.toBeInTheDocument());
  });

  it('saves with Ctrl+S and Cmd+S, also from inside an input', async () => {
    const onSave = vi.fn(async (_values: Values) => undefined);
    const { user } = setup(onSave);
    const input = screen.getByLabelText('Name');
    await user.type(input, '1');
    await user.keyboard('{Control>}s{/Control}');
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0][0]).toEqual({ name: 'Original1' });
    await waitFor(() => expect(saveButton()).not.toBeInTheDocument());

    await user.type(input, '2');
    const event = fireEvent.keyDown(window, { key: 's', metaKey: true });
    expect(event).toBe(false); // the browser's own "save page" is prevented
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(2));
  });

  it('does nothing on Ctrl+S when nothing changed', async () => {
    const onSave = vi.fn(async (_values: Values) => undefined);
    const { user } = setup(onSave);
    await user.keyboard('{Control>}s{/Control}');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('on an untouched create form, Ctrl+S checks the fields and shows what is missing', async () => {
    const onSave = vi.fn(async (_values: Values) => undefined);
    const { user } = renderRoutes(
      [{ path: '/things/create', element: <CreateForm onSave={onSave} /> }],
      ['/things/create'],
    );
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText(t('basics.requireField'))).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('shows the working label while saving', async () => {
    let finish: () => void = () => {};
    const onSave = vi.fn(() => new Promise<undefined>((resolve) => (finish = () => resolve(undefined))));
    const { user } = setup(onSave);
    await user.type(screen.getByLabelText('Name'), '!');
    await user.click(saveButton() as HTMLElement);
    expect(await screen.findByRole('button', { name: t('basics.working') })).toBeDisabled();
    finish();
    await waitFor(() => expect(screen.queryByRole('button', { name: t('basics.working') })).not.toBeInTheDocument());
  });

  it('shows the translated client and server field errors', async () => {
    const onSave = vi.fn(async () => {
      throw new ApiError('VALIDATION_ERROR', 400, 'invalid', [{ path: 'name', key: 'basics.tooLong' }]);
    });
    const { user } = setup(onSave);
    await user.clear(screen.getByLabelText('Name'));
    await user.click(saveButton() as HTMLElement);
    expect(await screen.findByText(t('basics.requireField'))).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Name'), 'Valid');
    await user.click(saveButton() as HTMLElement);
    expect(await screen.findByText(t('basics.tooLong'))).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('asks before leaving with unsaved changes: stay keeps the form, leave goes on', async () => {
    const { user, router } = setup(vi.fn(async (_values: Values) => undefined));
    await user.type(screen.getByLabelText('Name'), '!');
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText(t('basics.unsavedText'))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('basics.stay') }));
    expect(router.state.location.pathname).toBe('/form');
    expect(screen.getByLabelText('Name')).toHaveValue('Original!');

    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await user.click(await screen.findByRole('button', { name: t('basics.leave') }));
    expect(await screen.findByText('Other page')).toBeInTheDocument();
  });

  it('leaves without asking when the form is clean, and after a save that navigates', async () => {
    const { user, router } = setup(vi.fn(async () => ({ navigateTo: '/other' })));
    await user.type(screen.getByLabelText('Name'), '!');
    await user.click(saveButton() as HTMLElement);
    expect(await screen.findByText('Other page')).toBeInTheDocument();
    expect(screen.queryByText(t('basics.unsavedText'))).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/other');
  });

  it('read-only: the header says so, the fields are disabled, and nothing saves', async () => {
    const onSave = vi.fn(async (_values: Values) => undefined);
    const { user } = setup(onSave, true);
    expect(screen.getByText(t('basics.readOnly'))).toBeInTheDocument();
    const input = screen.getByLabelText('Name');
    expect(input).toBeDisabled();
    await user.type(input, 'x');
    expect(input).toHaveValue('Original');
    await user.keyboard('{Control>}s{/Control}');
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    expect(saveButton()).not.toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('an editable form has no read-only mark', () => {
    setup(vi.fn(async (_values: Values) => undefined));
    expect(screen.queryByText(t('basics.readOnly'))).not.toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeEnabled();
  });
});

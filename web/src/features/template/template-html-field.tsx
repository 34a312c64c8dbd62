import { Input, List, Text, Textarea } from '@mantine/core';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorMark, PlaceholderOption } from './editor-support';

// CodeMirror comes in its own chunk when the form opens, so the rest of the admin does not carry it.
const HtmlCodeEditor = lazy(() => import('./html-code-editor').then((m) => ({ default: m.HtmlCodeEditor })));

export interface TemplateHtmlFieldProps {
  label: string;
  description?: string;
  error?: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  readOnly?: boolean;
  options: PlaceholderOption[];
  check?: (text: string) => Promise<EditorMark[]>;
}

/**
 * The template's HTML as a code editor (highlighting, `{{` completion, the check's marks while
 * typing), labelled and described like the form's other fields. The marks are also listed as text
 * under the editor, so they are read out and found without the mouse.
 */
export function TemplateHtmlField({ label, description, error, check, ...editor }: TemplateHtmlFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const [marks, setMarks] = useState<EditorMark[]>([]);
  const labelId = `${id}-label`;
  const describedBy = [description && `${id}-description`, error && `${id}-error`, marks.length && `${id}-marks`]
    .filter(Boolean)
    .join(' ');
  return (
    <Input.Wrapper
      label={label}
      description={description}
      error={error}
      labelProps={{ id: labelId, htmlFor: undefined, component: 'div' } as never}
      descriptionProps={{ id: `${id}-description` }}
      errorProps={{ id: `${id}-error` }}
    >
      <Suspense
        fallback={
          <Textarea
            aria-labelledby={labelId}
            aria-busy
            readOnly
            rows={14}
            value={editor.value}
            description={t('badgeEditor.editorLoading')}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          />
        }
      >
        <HtmlCodeEditor
          {...editor}
          labelId={labelId}
          describedBy={describedBy || undefined}
          invalid={Boolean(error)}
          check={check}
          onMarks={setMarks}
        />
      </Suspense>
      {marks.length > 0 && (
        <List
          id={`${id}-marks`}
          size="xs"
          mt={4}
          spacing={0}
          aria-label={t('badgeEditor.marks')}
          data-testid="editor-marks"
        >
          {marks.map((m) => (
            <List.Item key={`${m.line}:${m.column}:${m.message}`}>
              <Text span size="xs" c={m.severity === 'error' ? 'red' : m.severity === 'warning' ? 'orange' : 'dimmed'}>
                {t('badgeEditor.markAt', { line: m.line, column: m.column ?? 1 })} {m.message}
              </Text>
            </List.Item>
          ))}
        </List>
      )}
    </Input.Wrapper>
  );
}

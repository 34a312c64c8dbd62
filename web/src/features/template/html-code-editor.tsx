import {
  autocompletion,
  type Completion,
  type CompletionContext,
  type CompletionResult,
  snippet,
} from '@codemirror/autocomplete';
import { html, htmlLanguage } from '@codemirror/lang-html';
import { type Diagnostic, linter } from '@codemirror/lint';
import { Annotation, Compartment, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { accessibleHighlighting } from './editor-highlight';
import { type EditorMark, markRange, type PlaceholderOption } from './editor-support';

/*
 * The CodeMirror 6 editor of a template's HTML. This module is loaded on demand (see
 * template-html-field.tsx), so CodeMirror is not part of the admin's main bundle.
 */

export interface HtmlCodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  readOnly?: boolean;
  /** the ids of the label, description and error the editable area is named and described by */
  labelId: string;
  describedBy?: string;
  invalid?: boolean;
  /** the completions offered after `{{` */
  options: PlaceholderOption[];
  /** the server's check of the text (called about 400 ms after the last change); its marks are shown */
  check?: (text: string) => Promise<EditorMark[]>;
  /** the marks of the last check, for the list beside the editor */
  onMarks?: (marks: EditorMark[]) => void;
}

/** A change that comes from the form (a reset after saving), not from typing. */
const fromForm = Annotation.define<boolean>();

const CLOSE = /^\}{1,2}/;
const OPEN = /\{\{[^{}\n]*$/;

/** Inserts a completion in place of `{{…` and of the `}}` closeBrackets put after the cursor. */
function applyOption(option: PlaceholderOption) {
  return (view: EditorView, completion: Completion, from: number, to: number) => {
    const after = CLOSE.exec(view.state.sliceDoc(to, to + 2))?.[0] ?? '';
    const end = to + after.length;
    if (option.insert.includes('${')) {
      snippet(option.insert)(view, completion, from, end);
      return;
    }
    view.dispatch({
      changes: { from, to: end, insert: option.insert },
      selection: { anchor: from + option.insert.length },
      userEvent: 'input.complete',
    });
  };
}

const theme = EditorView.theme({
  '&': {
    border: '1px solid var(--mantine-color-default-border)',
    borderRadius: 'var(--mantine-radius-sm)',
    fontSize: '13px',
    backgroundColor: 'var(--mantine-color-body)',
  },
  '&.cm-focused': { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: '-1px' },
  '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)', minHeight: '320px', maxHeight: '65vh' },
  '.cm-content': { minHeight: '320px' },
});

export function HtmlCodeEditor(props: HtmlCodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const editable = useRef(new Compartment());
  const attributes = useRef(new Compartment());

  const contentAttributes = (p: HtmlCodeEditorProps) =>
    EditorView.contentAttributes.of({
      'aria-labelledby': p.labelId,
      ...(p.describedBy ? { 'aria-describedby': p.describedBy } : {}),
      'aria-multiline': 'true',
      'aria-invalid': p.invalid ? 'true' : 'false',
      spellcheck: 'false',
    });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is made once; later props go through refs and compartments
  useEffect(() => {
    if (!host.current) return;
    const completions = (context: CompletionContext): CompletionResult | null => {
      const before = context.matchBefore(OPEN);
      if (!before) return null;
      return {
        from: before.from,
        validFor: OPEN,
        options: latest.current.options.map((o) => ({
          label: o.label,
          detail: o.detail,
          type: o.kind === 'helper' ? 'keyword' : o.kind === 'field' ? 'property' : 'variable',
          apply: applyOption(o),
        })),
      };
    };
    const lint = linter(
      async (v): Promise<Diagnostic[]> => {
        const check = latest.current.check;
        if (!check) return [];
        const text = v.state.doc.toString();
        let marks: EditorMark[];
        try {
          marks = await check(text);
        } catch {
          return [];
        }
        // a result for a text that has changed meanwhile is dropped by the linter; report only current ones
        if (v.state.doc.toString() === text) latest.current.onMarks?.(marks);
        const lines = text.split('\n');
        return marks.map((mark) => {
          const range = markRange(lines, mark);
          const line = v.state.doc.line(Math.min(range.line, v.state.doc.lines));
          return {
            from: line.from + Math.min(range.from, line.length),
            to: line.from + Math.min(range.to, line.length),
            severity: mark.severity,
            message: mark.message,
          };
        });
      },
      { delay: 400 },
    );
    const created = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: props.value,
        extensions: [
          basicSetup,
          html(),
          accessibleHighlighting,
          htmlLanguage.data.of({ autocomplete: completions }),
          autocompletion({ activateOnTyping: true, icons: false }),
          lint,
          theme,
          EditorView.lineWrapping,
          editable.current.of([
            EditorState.readOnly.of(Boolean(props.readOnly)),
            EditorView.editable.of(!props.readOnly),
          ]),
          attributes.current.of(contentAttributes(props)),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.some((tr) => tr.annotation(fromForm)))
              latest.current.onChange(update.state.doc.toString());
            if (update.focusChanged && !update.view.hasFocus) latest.current.onBlur?.();
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
  }, []);

  // the form's value (after a reset) into the editor
  useEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === props.value) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value }, annotations: fromForm.of(true) });
  }, [props.value]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: contentAttributes reads the props named
  useEffect(() => {
    view.current?.dispatch({
      effects: [
        editable.current.reconfigure([
          EditorState.readOnly.of(Boolean(props.readOnly)),
          EditorView.editable.of(!props.readOnly),
        ]),
        attributes.current.reconfigure(contentAttributes(props)),
      ],
    });
  }, [props.readOnly, props.invalid, props.labelId, props.describedBy]);

  return <div ref={host} data-testid="html-code-editor" />;
}

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type DefaultValues, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A react-hook-form bound to a contract schema with the spec §5 behaviour: errors show
 * once a field is touched (or on submit), values arrive parsed (trimmed), and `anyEmpty`
 * tells the submit button to look dimmed while a field is blank.
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(schema: S, defaultValues: DefaultValues<z.input<S>>) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema as never) as never,
    mode: 'onTouched',
    defaultValues,
  });
  const values = useWatch({ control: form.control }) as Record<string, unknown>;
  const anyEmpty = Object.values(values).some((v) => typeof v === 'string' && v.trim() === '');
  return { ...form, anyEmpty };
}

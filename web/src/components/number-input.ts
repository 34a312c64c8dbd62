// Mantine's NumberInput (with react-number-format) as a chunk of its own, see lazy-number-input.tsx.
export { NumberInput } from '@mantine/core';

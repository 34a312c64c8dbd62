// The login schema as a chunk of its own, loaded at the form's first validation (issue 15).
export { loginSchema } from '@accredo/domain';

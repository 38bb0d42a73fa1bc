import { api } from '../lib/api-client.ts';
import type { User, UserCreate } from '../types/api.ts';

export const createUser = (input: UserCreate) => api.post<User>('/api/users', input);

import { api } from '../lib/api-client.ts';
import type { User } from '../types/api.ts';

export const getUsers = () => api.get<User[]>('/api/users');

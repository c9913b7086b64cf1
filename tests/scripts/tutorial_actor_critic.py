# The pytorch/examples actor_critic.py (reinforcement_learning) with a tiny deterministic environment instead of gym:
# Categorical(probs).sample/log_prob, a namedtuple of saved actions, returns normalised with numpy's float32 eps, smooth_l1_loss.
import argparse
import numpy as np
from itertools import count
from collections import namedtuple
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(543)
SavedAction = namedtuple('SavedAction', ['log_prob', 'value'])
gamma = 0.99

class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 128)
        self.action_head = nn.Linear(128, 2)
        self.value_head = nn.Linear(128, 1)
        self.saved_actions = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        action_prob = F.softmax(self.action_head(x), dim=-1)
        state_values = self.value_head(x)
        return action_prob, state_values

model = Policy()
optimizer = optim.Adam(model.parameters(), lr=3e-2)
eps = np.finfo(np.float32).eps.item()

def select_action(state):
    state = torch.from_numpy(state).float()
    probs, state_value = model(state)
    m = Categorical(probs)
    action = m.sample()
    model.saved_actions.append(SavedAction(m.log_prob(action), state_value))
    return action.item()

def finish_episode():
    R = 0
    saved_actions = model.saved_actions
    policy_losses = []
    value_losses = []
    returns = []
    for r in model.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for (log_prob, value), R in zip(saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()
    del model.rewards[:]
    del model.saved_actions[:]
    return loss.item()

class Env:
    def __init__(self):
        self.t = 0
        self.s = np.zeros(4, dtype=np.float64)
    def reset(self):
        self.t = 0
        self.s = np.array([0.01, -0.02, 0.03, 0.0])
        return self.s
    def step(self, a):
        self.t += 1
        self.s = self.s + (0.1 if a == 1 else -0.1) * np.array([1.0, 0.5, -0.2, 0.3])
        done = self.t >= 10 or abs(self.s[0]) > 0.5
        return self.s, 1.0, done, {}

env = Env()
running_reward = 10
for i_episode in count(1):
    state, ep_reward = env.reset(), 0
    for t in range(1, 10000):
        action = select_action(state)
        state, reward, done, _ = env.step(action)
        model.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    l = finish_episode()
    if i_episode % 1 == 0:
        print('Episode {}\tLast reward: {:.2f}\tAverage reward: {:.2f}\tloss {:.4f}'.format(
              i_episode, ep_reward, running_reward, l))
    if i_episode >= 5:
        print("Solved! Running reward is now {} and the last episode runs to {} time steps!".format(running_reward, t))
        break
m = Categorical(torch.tensor([0.25, 0.25, 0.5]))
print(m, m.entropy(), m.probs, m.logits)
print(m.sample((3,)), m.log_prob(torch.tensor([0, 2])))
m2 = Categorical(logits=torch.tensor([[1.0, 2.0], [0.5, 0.1]]))
print(m2.batch_shape, m2.event_shape, m2.probs, m2.mean if False else m2.param_shape)

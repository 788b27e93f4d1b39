"""Multi-machine training of belote_v0 agents on Ray RLlib (``pip install belote-rl[rllib]``).

Modules (only ``env``, ``module``, ``selfplay`` and ``train`` import ray; ``config``,
``export`` and ``quiet`` do not, so an RLlib checkpoint exports without ray):

* ``env``: ``BeloteMultiAgentEnv``, belote_v0 as an RLlib ``MultiAgentEnv`` (observation
  keys ``observations`` / ``action_mask``; the deal reward reaches all four seats);
* ``module``: ``BeloteTorchRLModule``, an action-masking torch RLModule around the hard
  tier's ``BeloteNet``;
* ``selfplay``: the main-vs-snapshots mapping and the snapshot callback;
* ``config``: ``RLlibConfig`` (YAML, ``configs/rllib/*.yaml``);
* ``train``: ``train_rllib`` (``belote train-rllib``);
* ``export``: RLlib checkpoint -> safetensors + JSON model folder (``belote export``);
* ``quiet``: filters for a few of Ray's start-up notices (no ray import).
"""

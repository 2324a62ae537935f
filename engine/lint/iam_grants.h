#pragma once
// What the project's IAM says, as far as lint can read it: whether a policy (its text, its
// statements, an attached managed policy's ARN) grants an action. Shared by the rules that
// ask "may this workload do X" (autoscaler-iam, iam-missing-sqs-access).

#include <string>
#include <vector>

#include "engine/lint/model.h"

namespace strata::lint {

//! Whether `v` holds a string containing one of `grants` (an action such as
//! "autoscaling:SetDesiredCapacity", a wildcard, a managed policy's name); `unknown` is set
//! when part of it that could grant an action is not known yet. What a statement applies to
//! (resources, conditions, principals) grants nothing and is not searched.
bool GrantsAny(const Value& v, const std::vector<std::string>& grants, bool& unknown);

//! Whether one of `instances` (aws_iam_* resources and policy documents) grants one of
//! `grants`; `unknown` as above. An attachment's unknown policy ARN hides nothing: it names a
//! policy of the project, read through that policy's own text; neither does a policy text
//! written as ${data.DOC.json} of policy documents among `instances`, read through their
//! statements.
bool InstancesGrant(const std::vector<const Instance*>& instances, const std::vector<std::string>& grants, bool& unknown);

//! The IAM resources and policy documents of `component`.
std::vector<const Instance*> IamInstances(const ProjectModel& model, int component);

}  // namespace strata::lint

#pragma once
// The part every EC2-object resource type shares: read by Describe*, gone on the
// *.NotFound code, tags updated with CreateTags/DeleteTags, other attributes through the
// type's Modify*Attribute calls, delete that tolerates "already gone", import by id, and
// recovery of an interrupted create by its create-token tag (CreateRecovery::CreateTag):
// each create call tags the object through TagSpecification with TagsOnCreate, and
// FindCreated looks it up with one Describe* filtered on that tag. A type that names its
// id filter (ReadInBatchesBy) refreshes many objects in one Describe* per 200 ids.

#include <memory>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/ec2/ec2_api.h"

namespace strata::aws {

//! The names of one EC2 object kind's calls and answers.
struct Ec2ObjectApi {
  std::string describe;   //!< "DescribeVpcs"
  std::string id_param;   //!< "VpcId" (DescribeVpcs takes "VpcId.1")
  std::string item_set;   //!< "vpcSet"
  std::string not_found;  //!< "InvalidVpcID.NotFound"
  std::string remove;     //!< "DeleteVpc"
};

class Ec2ResourceType : public AwsResourceType {
 public:
  Ec2ResourceType(std::shared_ptr<AwsSession> session, Ec2ObjectApi api)
      : AwsResourceType(std::move(session)), api_(std::move(api)) {}

  CreateRecovery Recovery() const override { return CreateRecovery::CreateTag; }
  ReadResult Read(const OperationContext& ctx, const Value& prior) override;
  bool ReadsInBatches() const override { return !batch_filter_.empty(); }
  //! One Describe* filtered on the ids, 200 at a time (EC2's limit of values per filter),
  //! following NextToken. An id the answer does not list is gone, as the single read's
  //! *.NotFound says; a Describe* that fails is done again object by object, so that each
  //! object gets its own answer (and one object's error never fails the others).
  std::vector<ReadResult> ReadMany(const OperationContext& ctx, const std::vector<Value>& priors) override;
  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override;
  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override;
  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    return ImportById(ctx, id);
  }

 protected:
  //! The object whose create-token tag is ctx.idempotency_token, read with `planned` as the
  //! prior; gone when there is none (or no token). Two such objects are an error.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override;
  //! The token tag is all FindCreated needs.
  std::vector<std::string> RecoveryKey() const override { return {}; }
  //! The state from a Describe* item (`prior` tells which tags were written).
  virtual ReadResult StateFrom(const OperationContext& ctx, pugi::xml_node item,
                               const Value& prior) = 0;
  //! Brings the attributes set by Modify*Attribute calls from `prior`'s values (null
  //! prior: AWS's defaults after a create) to `planned`'s.
  virtual Diagnostics ModifyAttributes(const OperationContext& ctx, const std::string& id,
                                       const Value& prior, const Value& planned) = 0;
  //! The end of a create: the create call's answer, the new id at `id_path` in it, then
  //! ModifyAttributes and a read.
  ApplyResult FinishCreate(const OperationContext& ctx, const QueryRequest& call,
                           const std::string& id_path, const Value& planned);

  //! Opts the type into batch reads: Describe* with the filter `id_filter` ("subnet-id")
  //! and, when the call pages, MaxResults `page_size` (its documented maximum); 0 when the
  //! call has no paging (DescribeAddresses).
  void ReadInBatchesBy(std::string id_filter, int page_size) {
    batch_filter_ = std::move(id_filter);
    batch_page_size_ = page_size;
  }
  //! The element an answer's item names its id with: "VpcId" is answered as <vpcId>.
  std::string IdElement() const;

  Ec2ObjectApi api_;

 private:
  std::string batch_filter_;
  int batch_page_size_ = 0;
};

}  // namespace strata::aws
